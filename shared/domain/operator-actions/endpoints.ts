/**
 * A client's callback and webhook URLs, each change with its audit entry: a URL saved, its
 * signing secret kept (the dashboard's Integrations, setEndpointUrl), the secret rotated with an
 * overlap (the dashboard, `ops callbacks rotate-secret`), and URL and secret set at once, the
 * secret replaced without an overlap (`ops callbacks set`, `ops webhooks set`).
 */
import { type EndpointKind, getEndpoint } from '../../store/endpoint-store';
import { configureEndpoint, setEndpointUrl } from '../callbacks/deliveries';
import { DEFAULT_OVERLAP_HOURS, type RotatedSecret, rotateEndpointSecret } from '../callbacks/rotation';
import { type Actor, recordAction } from './actor';

/**
 * Saves where `kind` events go (setEndpointUrl's rules and refusals); `secret` is there only when
 * one was made (the first URL). Records `<kind>.set_url`, with the old URL as `previous`.
 */
export async function saveEndpointUrl(actor: Actor, kind: EndpointKind, url: string, now = new Date()): Promise<{ url: string; secret?: string; previousUrl?: string }> {
  const saved = await setEndpointUrl(actor.client_id, kind, { url }, now);
  await recordAction(
    actor,
    { action: `${kind}.set_url`, changes: { kind, url: saved.url, ...(saved.secret ? { secret: 'new' } : {}) }, previous: { url: saved.previousUrl ?? null } },
    now,
  );
  return saved;
}

/**
 * A new signing secret for `kind`, its URL kept and the current secret valid beside it for
 * `overlapHours` (rotateEndpointSecret's rules: 404 NOT_FOUND without a `kind` URL); records
 * `<kind>.rotate_secret` with the overlap and its end.
 */
export async function rotateSigningSecret(actor: Actor, kind: EndpointKind, overlapHours = DEFAULT_OVERLAP_HOURS, now = new Date()): Promise<RotatedSecret> {
  const rotated = await rotateEndpointSecret(actor.client_id, kind, overlapHours, now);
  await recordAction(
    actor,
    { action: `${kind}.rotate_secret`, changes: { kind, url: rotated.url, overlap_hours: overlapHours, previous_valid_until: rotated.previous_valid_until } },
    now,
  );
  return rotated;
}

/**
 * Sets where `kind` events go and the secret they are signed with, the given one or a new one
 * (configureEndpoint's rules and refusals): the receiver must take the secret. Records
 * `<kind>.set_url` as saveEndpointUrl does, its `secret` saying whether the secret was made
 * (`new`) or given (`given`), with the old URL as `previous`.
 */
export async function setEndpoint(actor: Actor, kind: EndpointKind, input: { url: string; secret?: string }, now = new Date()): Promise<{ url: string; secret: string }> {
  const before = await getEndpoint(actor.client_id, kind);
  const saved = await configureEndpoint(actor.client_id, kind, input, now);
  const secret = input.secret === undefined ? 'new' : 'given';
  await recordAction(actor, { action: `${kind}.set_url`, changes: { kind, url: saved.url, secret }, previous: { url: before?.url ?? null } }, now);
  return saved;
}
