/**
 * An example receiver built on the kit; bin/example-receiver.ts runs it:
 *   CALLBACK_SECRET=whsec_... PORT=8080 npx tsx bin/example-receiver.ts
 * and point `npm run ops -- callbacks set --url http://127.0.0.1:8080/hooks` at it.
 *
 * Its handler keeps what the events tell, the way a PMS or a website should: a booking by
 * `booking.id`, upserted from every booking event, an event with a lower `booking.sequence` than
 * the one applied ignored (events may arrive out of order: a retry of an older one after a newer
 * one); a payment order by `order_reference`, its latest state.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BookingEvent, type DeliveryMeta, handleDelivery, MemoryDeliveryStore, type PaymentOrderEvent, type ServiceEvent } from './index';

/** A booking as the receiver keeps it: the last event applied, with its sequence. */
export interface MirroredBooking {
  booking: BookingEvent['booking'];
  room: BookingEvent['room'];
  /** The event that set it: booking.confirmed, booking.modified, booking.cancelled or booking.no_show. */
  last_event: BookingEvent['event'];
  sequence: number;
}

/** What the events told, kept in memory (use your database, keyed the same way, in production). */
export class EventMirror {
  readonly bookings = new Map<string, MirroredBooking>();
  readonly paymentOrders = new Map<string, PaymentOrderEvent['payment_order'] & { last_event: PaymentOrderEvent['event'] }>();
  /** Events ignored because a later one of the same booking was already applied. */
  readonly ignored: BookingEvent[] = [];

  /** Applies one event; false when it was older than what is kept (ignored). */
  apply(event: ServiceEvent): boolean {
    if (event.event.startsWith('booking.')) return this.applyBooking(event as BookingEvent);
    const order = (event as PaymentOrderEvent).payment_order;
    if (order?.order_reference) this.paymentOrders.set(order.order_reference, { ...order, last_event: event.event as PaymentOrderEvent['event'] });
    return true;
  }

  private applyBooking(event: BookingEvent): boolean {
    const sequence = event.booking.sequence ?? 0;
    const kept = this.bookings.get(event.booking.id);
    // Equal: the same event again (a retry); it carries the same booking, so applying it is harmless.
    if (kept && sequence < kept.sequence) {
      this.ignored.push(event);
      return false;
    }
    this.bookings.set(event.booking.id, { booking: event.booking, room: event.room, last_event: event.event, sequence });
    return true;
  }
}

export interface ExampleReceiver {
  url: string;
  server: Server;
  /** The bookings and payment orders as the events left them. */
  mirror: EventMirror;
  close(): Promise<void>;
}

export async function startExampleReceiver(options: {
  secret?: string | readonly string[];
  port?: number;
  /** Called after the event is applied to the mirror. */
  onEvent?: (event: ServiceEvent, meta: DeliveryMeta) => Promise<void>;
}): Promise<ExampleReceiver> {
  const store = new MemoryDeliveryStore();
  const mirror = new EventMirror();
  const onEvent = async (event: ServiceEvent, meta: DeliveryMeta) => {
    mirror.apply(event);
    await options.onEvent?.(event, meta);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handleDelivery({ rawBody: Buffer.concat(chunks), headers: req.headers }, { secret: options.secret, store, onEvent })
        .then((reply) => {
          res.writeHead(reply.status, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(reply.body));
        })
        .catch(() => {
          res.writeHead(500).end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    server,
    mirror,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
