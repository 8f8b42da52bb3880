/**
 * Rotating a signing secret with an overlap (docs/behaviour.md "Receivers in control"): a new
 * secret signs from now on, and the one it replaces stays valid beside it for the overlap
 * (`webhook-signature` carries a signature with each, X-Service-Signature keeps the old one), so
 * the receiver has the whole overlap to switch. Setting a secret (configureEndpoint) still
 * replaces it at once.
 */
import { errors } from '../../errors';
import { type EndpointKind, getEndpoint, putRotatedSecret } from '../../store/endpoint-store';
import { generateSigningSecret } from './signing';

export const DEFAULT_OVERLAP_HOURS = 24;
/** The longest overlap: deliveries are kept 30 days, a receiver needs no more to switch. */
export const MAX_OVERLAP_HOURS = 30 * 24;

export interface RotatedSecret {
  url: string;
  /** The new secret, to show once. */
  secret: string;
  /** Until when the previous secret still signs. */
  previous_valid_until: string;
}

/** 400 VALIDATION_ERROR unless `hours` is a number of hours from 0 to 30 days. */
export function checkOverlapHours(hours: number): number {
  if (!Number.isFinite(hours) || hours < 0 || hours > MAX_OVERLAP_HOURS) {
    const message = `The overlap must be a number of hours from 0 to ${MAX_OVERLAP_HOURS}`;
    throw errors.validation([{ path: 'overlap_hours', message }], message);
  }
  return hours;
}

/**
 * A new secret for the client's `kind` endpoint, the current one valid until `overlapHours` from
 * `now`; 404 NOT_FOUND when the client has no `kind` URL (no secret to rotate). A concurrent
 * change of the secret is read again, so no rotation is lost.
 */
export async function rotateEndpointSecret(clientId: string, kind: EndpointKind, overlapHours = DEFAULT_OVERLAP_HOURS, now = new Date()): Promise<RotatedSecret> {
  checkOverlapHours(overlapHours);
  const previousValidUntil = new Date(now.getTime() + Math.round(overlapHours * 3_600_000)).toISOString();
  for (let tries = 0; tries < 3; tries++) {
    const endpoint = await getEndpoint(clientId, kind);
    if (!endpoint) throw errors.endpointNotSet(kind);
    const secret = generateSigningSecret();
    if (await putRotatedSecret(endpoint, secret, previousValidUntil, now.toISOString())) {
      return { url: endpoint.url, secret, previous_valid_until: previousValidUntil };
    }
  }
  throw errors.serviceUnavailable();
}
