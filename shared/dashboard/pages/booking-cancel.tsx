/**
 * "Cancel booking" on a booking the service made: a confirmation page of its own with a "Reason"
 * (kept for the hotel and sent to the PMS), who asked for it, an optional "Message to the guest"
 * (the only words of it the guest's e-mail carries) and, for a paid-order booking, the refund
 * (none, in full, or an amount); the room is free at once. The audited operator action the
 * operator CLI calls, POST-redirect-GET.
 */
import type { ComponentChildren } from 'preact';
import { cancelBooking, type CancelRefund } from '../../domain/operator-actions/booking-changes';
import { formatAmount, formatDate } from '../format';
import { Dl, ErrorSummary, Field, Page } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { cancelPath, isCancellable, notNow, ours, refusalNotice } from './booking-changes';
import { type BookingFacts, bookingFactsOf, titleOf } from './booking-facts';
import { bookingPath, isRefusal, nights } from './bookings-common';
import { MAX_REASON, plainAmount, type RefundableOrder, refundLeft, typedAmountMinor } from './refund-form';


type CancelField = 'reason' | 'asked_by' | 'guest_message' | 'refund' | 'refund_amount';
interface CancelFormState {
  reason: string;
  askedBy: string;
  guestMessage: string;
  refund: string;
  refundAmount: string;
  errors?: Partial<Record<CancelField, string>>;
  status?: number;
}
const CANCEL_LABELS: Record<CancelField, string> = { reason: 'Reason', asked_by: 'Who asked for it', guest_message: 'Message to the guest', refund: 'Refund', refund_amount: 'Amount to refund' };

interface Choice {
  value: string;
  label: string;
  hint: string;
}

/** Radio buttons under a legend, each with its hint; the first's id is the field's (the error summary links to it). */
function Radios({ name, legend, choices, checked, error, children }: { name: CancelField; legend: string; choices: Choice[]; checked: string; error?: string; children?: ComponentChildren }) {
  return (
    <fieldset class="radios" aria-describedby={error ? `f-${name}-error` : undefined}>
      <legend>{legend}</legend>
      {error ? (
        <p id={`f-${name}-error`} class="field-error">
          {error}
        </p>
      ) : null}
      {choices.map((choice, i) => {
        const id = i === 0 ? `f-${name}` : `f-${name}-${choice.value}`;
        return (
          <div class="radio">
            <input type="radio" id={id} name={name} value={choice.value} checked={checked === choice.value} aria-describedby={`${id}-hint`} />
            <label for={id}>
              {choice.label}
              <small id={`${id}-hint`} class="hint">
                {choice.hint}
              </small>
            </label>
          </div>
        );
      })}
      {children}
    </fieldset>
  );
}

const ASKED_BY: Choice[] = [
  { value: 'hotel', label: 'The hotel', hint: 'The e-mail says the hotel cancelled the booking.' },
  { value: 'guest', label: 'The guest', hint: 'The e-mail says the booking is cancelled as the guest asked.' },
];

/** A text area with its label above, a hint, and its error beside it. */
function TextArea({ name, hint, value, error }: { name: 'reason' | 'guest_message'; hint: string; value: string; error?: string }) {
  const id = `f-${name}`;
  return (
    <div class="field">
      <label for={id}>{CANCEL_LABELS[name]}</label>
      <small id={`${id}-hint`} class="hint">
        {hint}
      </small>
      {error ? (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      ) : null}
      <textarea id={id} name={name} rows={3} aria-invalid={error ? 'true' : undefined} aria-describedby={[`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}>
        {value}
      </textarea>
    </div>
  );
}

/** The paid order a cancellation may refund, while something is left to refund. */
const refundableOrder = (facts: BookingFacts): RefundableOrder | undefined => {
  const order = facts.story.order;
  return order && refundLeft(order) > 0 ? order : undefined;
};

function RefundChoice({ order, form }: { order: RefundableOrder; form: CancelFormState }) {
  const left = formatAmount(refundLeft(order), order.currency);
  const choices = [
    { value: 'none', label: 'No refund', hint: 'You can still refund from the payment order later.' },
    { value: 'full', label: `Refund in full: ${left}`, hint: 'What is left of what the guest paid online.' },
    { value: 'amount', label: 'Refund part of it', hint: 'Enter the amount below.' },
  ];
  return (
    <Radios name="refund" legend={CANCEL_LABELS.refund} choices={choices} checked={form.refund} error={form.errors?.refund}>
      <Field label={`${CANCEL_LABELS.refund_amount} (${order.currency})`} name="refund_amount" value={form.refundAmount} error={form.errors?.refund_amount} hint={`At most ${left}, such as ${plainAmount(Math.min(refundLeft(order), 5000), order.currency)}.`} />
    </Radios>
  );
}

function cancelPage(request: PageRequest, facts: BookingFacts, form: CancelFormState): PageOutcome {
  const { operator, links } = request;
  const { booking: b, room } = facts.story;
  if (!isCancellable(b)) return notNow(b, 'cancelled');
  const order = refundableOrder(facts);
  return {
    status: form.status ?? 200,
    html: (
      <Page title="Cancel this booking?" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          <a href={links.to(bookingPath(b.id))}>{titleOf(b)}</a>
        </p>
        <ErrorSummary errors={form.errors ?? {}} labels={CANCEL_LABELS} />
        <Dl
          rows={[
            ['Guest name', b.guest_name],
            ['Stay', `${formatDate(b.check_in_date)} to ${formatDate(b.check_out_date)} (${nights(b)} ${nights(b) === 1 ? 'night' : 'nights'})`],
            ['Room', room ? `${room.number} (${room.category})` : 'No room'],
            ...(facts.story.order ? [['Paid online', formatAmount(facts.story.order.paid_minor, facts.story.order.currency)] as const] : []),
          ]}
        />
        <p>The room is free again for these nights at once. Your PMS is told, and the guest gets an e-mail saying who cancelled, with your message to them if you write one (never the reason).</p>
        <form method="post" action={links.to(cancelPath(b.id))} aria-label="Cancel booking" novalidate>
          <TextArea name="reason" hint={`For your hotel: kept with the booking and sent to your PMS, never to the guest (at most ${MAX_REASON} characters).`} value={form.reason} error={form.errors?.reason} />
          <Radios name="asked_by" legend={CANCEL_LABELS.asked_by} choices={ASKED_BY} checked={form.askedBy} />
          <TextArea name="guest_message" hint={`Optional. The only words of yours the guest's cancellation e-mail carries (at most ${MAX_REASON} characters).`} value={form.guestMessage} error={form.errors?.guest_message} />
          {order ? <RefundChoice order={order} form={form} /> : null}
          <div class="actions">
            <button type="submit" class="destructive">
              Cancel booking
            </button>
            <a href={links.to(bookingPath(b.id))}>Keep the booking</a>
          </div>
        </form>
      </Page>
    ),
  };
}

export const cancelBookingPage: PageAction = async (request) => cancelPage(request, await bookingFactsOf(request), { reason: '', askedBy: 'hotel', guestMessage: '', refund: 'none', refundAmount: '' });

/** The refund the form asks for with the cancellation, or what is wrong with it. */
function refundOf(form: CancelFormState, order: RefundableOrder | undefined): { refund?: CancelRefund; error?: Partial<Record<CancelField, string>> } {
  if (!order || form.refund === 'none' || form.refund === '') return { refund: 'none' };
  if (form.refund === 'full') return { refund: 'full' };
  if (form.refund !== 'amount') return { error: { refund: 'Choose whether to refund the guest' } };
  const left = refundLeft(order);
  const amount = typedAmountMinor(form.refundAmount, order.currency);
  if (!form.refundAmount) return { error: { refund_amount: `Enter the amount to refund, at most ${formatAmount(left, order.currency)}` } };
  if (amount === undefined || amount < 1) return { error: { refund_amount: `Enter an amount in ${order.currency}, such as ${plainAmount(Math.min(left, 5000), order.currency)}` } };
  if (amount > left) return { error: { refund_amount: `Enter at most ${formatAmount(left, order.currency)}: that is what is left to refund` } };
  return { refund: amount };
}

export const cancelBookingAction: PageAction = async (request) => {
  const facts = await bookingFactsOf(request);
  const b = facts.story.booking;
  // A cancelled one goes on: cancelling it again answers as it is.
  if (!ours(b)) return notNow(b, 'cancelled');
  const form: CancelFormState = {
    reason: (request.form.get('reason') ?? '').replace(/\r\n?/g, '\n').trim(),
    askedBy: request.form.get('asked_by') === 'guest' ? 'guest' : 'hotel',
    guestMessage: (request.form.get('guest_message') ?? '').replace(/\r\n?/g, '\n').trim(),
    refund: request.form.get('refund') ?? 'none',
    refundAmount: (request.form.get('refund_amount') ?? '').trim(),
  };
  const { refund, error } = refundOf(form, refundableOrder(facts));
  const errors = {
    ...(form.reason.length > MAX_REASON ? { reason: `Shorten the reason to ${MAX_REASON} characters or fewer (it has ${form.reason.length})` } : {}),
    ...(form.guestMessage.length > MAX_REASON ? { guest_message: `Shorten the message to ${MAX_REASON} characters or fewer (it has ${form.guestMessage.length})` } : {}),
    ...error,
  };
  if (Object.keys(errors).length) return cancelPage(request, facts, { ...form, errors, status: 400 });

  let cancelled;
  try {
    cancelled = await cancelBooking(
      request.operator,
      b.id,
      { ...(form.reason ? { reason: form.reason } : {}), ...(form.guestMessage ? { guestMessage: form.guestMessage } : {}), askedBy: form.askedBy === 'guest' ? 'guest' : 'hotel', refund },
      request.now,
    );
  } catch (thrown) {
    if (!isRefusal(thrown) || thrown.code === 'NOT_FOUND') throw thrown;
    return { redirect: bookingPath(b.id), notice: refusalNotice(thrown, 'cancelled') };
  }
  const path = bookingPath(b.id);
  if (cancelled.repeated) return { redirect: path, notice: { kind: 'success', message: 'This booking was already cancelled: nothing changed.' } };
  const freed = 'Booking cancelled: the room is free again for its nights.';
  if (cancelled.refund_error) {
    return { redirect: path, notice: { kind: 'error', message: `${freed} The refund was not made (${cancelled.refund_error.message}): refund it below.` } };
  }
  const made = cancelled.refund;
  if (!made) return { redirect: path, notice: { kind: 'success', message: freed } };
  const amount = formatAmount(made.amount_minor, made.currency);
  const refunded = made.status === 'succeeded' ? `Refunded ${amount}.` : made.status === 'pending' ? `A refund of ${amount} was asked for: the payment provider has not confirmed it yet.` : `The refund of ${amount} failed at the payment provider.`;
  return { redirect: path, notice: { kind: made.status === 'failed' ? 'error' : 'success', message: `${freed} ${refunded}` } };
};
