/**
 * An example receiver built on the kit; bin/example-receiver.ts runs it:
 *   CALLBACK_SECRET=whsec_... PORT=8080 npx tsx bin/example-receiver.ts
 * and point `npm run ops -- callbacks set --url http://127.0.0.1:8080/hooks` at it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleDelivery, MemoryDeliveryStore, type DeliveryMeta, type ServiceEvent } from './index';

export interface ExampleReceiver {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startExampleReceiver(options: {
  secret?: string | readonly string[];
  port?: number;
  onEvent: (event: ServiceEvent, meta: DeliveryMeta) => Promise<void>;
}): Promise<ExampleReceiver> {
  const store = new MemoryDeliveryStore();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handleDelivery({ rawBody: Buffer.concat(chunks), headers: req.headers }, { secret: options.secret, store, onEvent: options.onEvent })
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
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
