/**
 * Revoking a key and rotating a signing secret, each behind a confirmation page of its own: the
 * Integrations page's "Revoke" and "Rotate secret" only open that page (a GET), which says what
 * will happen and whom it affects, with a destructive button and a way back. The action itself
 * acts only on the confirmation form's `confirm=yes`: any other POST (a stale form, a one-click
 * post) is sent to the confirmation page and changes nothing.
 */
import { DEFAULT_OVERLAP_HOURS } from '../../domain/callbacks/rotation';
import { timeZoneOf } from '../../domain/client-settings';
import { listClientKeys, requireClient } from '../../domain/clients';
import { type ApiKeyRecord, endpointOf } from '../../domain/integrations';
import { rotateSigningSecret } from '../../domain/operator-actions/endpoints';
import { revokeApiKey } from '../../domain/operator-actions/keys';
import { AppError, errors } from '../../errors';
import { formatTime } from '../format';
import { hotelZone } from '../hotel-zone';
import { Dl, type Links, Page } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { ENDPOINT_WORDS, hotelTime, PAGE } from './integrations';
import { endpointKind } from './integrations-actions';
import { type ConfirmedAction, withRecentPassword } from '../reauthentication';

const CONFIRM_FIELD = 'confirm';

const confirmedByForm = (request: PageRequest) => request.form.get(CONFIRM_FIELD) === 'yes';

/** The confirmation form: the action's POST with `confirm=yes`, its destructive button, and Cancel. */
function ConfirmForm({ links, action, button, back }: { links: Links; action: string; button: string; back: string }) {
  return (
    <form method="post" action={links.to(action)} class="actions">
      <input type="hidden" name={CONFIRM_FIELD} value="yes" />
      <button type="submit" class="destructive">
        {button}
      </button>
      <a href={links.to(back)}>Cancel</a>
    </form>
  );
}

const revokePath = (keyId: string) => `${PAGE}/keys/${encodeURIComponent(keyId)}/revoke`;

/** One of the operator's client's keys; another client's key or an unknown id is 404, as the same answer. */
async function keyOf(request: PageRequest): Promise<ApiKeyRecord> {
  const keyId = request.params.key_id ?? '';
  const key = (await listClientKeys(request.operator.client_id)).find((k) => k.key_id === keyId);
  if (!key) throw errors.noSuchKey();
  return key;
}

const KEY_EFFECT: Record<ApiKeyRecord['kind'], string> = {
  sync: 'Your PMS, or whatever else uses this key, is refused within a minute: rooms, bookings and availability stop reaching us with it.',
  payment: "Your website's server is refused within a minute: it can no longer create payment orders or look them up with this key.",
};

export const revokeKeyPage: PageAction = async (request) => {
  const [key, zone] = await Promise.all([keyOf(request), hotelZone(request.operator.client_id)]);
  const { links } = request;
  const kindWords = key.kind === 'sync' ? 'sync key' : 'payment key';
  return {
    html: (
      <Page title={`Revoke this ${kindWords}?`} links={links} operator={request.operator} nav="integrations">
        <Dl
          rows={[
            ['Name', key.name ?? '—'],
            ['Key id', <code>{key.key_id}</code>],
            key.kind === 'sync' ? ['Scopes', key.scopes.join(', ')] : ['Allowed origins', key.origins.join(', ') || 'any (server to server)'],
            ['Created', formatTime(zone, key.created_at)],
            ['Last used', formatTime(zone, key.last_used_at, 'never')],
          ]}
        />
        {key.revoked_at ? (
          <>
            <p>This key was already revoked on {formatTime(zone, key.revoked_at)}.</p>
            <p>
              <a href={links.to(`${PAGE}#${key.kind}-keys`)}>Back to Integrations</a>
            </p>
          </>
        ) : (
          <>
            <p>{KEY_EFFECT[key.kind]}</p>
            <p>
              <strong>This cannot be undone.</strong> To connect again, create a new key and put it where this one was used.
            </p>
            <ConfirmForm links={links} action={revokePath(key.key_id)} button="Revoke key" back={`${PAGE}#${key.kind}-keys`} />
          </>
        )}
      </Page>
    ),
  };
};

export const revokeKeyAction: PageAction = async (request) => {
  const keyId = request.params.key_id ?? '';
  if (!confirmedByForm(request)) return { redirect: revokePath(keyId) };
  try {
    await revokeApiKey(request.operator, keyId, request.now);
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { redirect: PAGE, notice: { kind: 'error', message: error.message } };
    throw error;
  }
  return { redirect: PAGE, notice: { kind: 'success', message: `Key ${keyId} was revoked: it stops working within a minute.` } };
};

const rotatePath = (kind: string) => `${PAGE}/endpoints/${kind}/rotate`;

export const rotateSecretPage: PageAction = async (request) => {
  const kind = endpointKind(request);
  const endpoint = await endpointOf(request.operator.client_id, kind);
  const words = ENDPOINT_WORDS[kind];
  const { links } = request;
  return {
    html: (
      <Page title={`Rotate the ${kind} signing secret?`} links={links} operator={request.operator} nav="integrations">
        {endpoint ? (
          <>
            <Dl
              rows={[
                [words.title, <span class="url">{endpoint.url}</span>],
                ['Receiver', words.receiver],
              ]}
            />
            <p>A new signing secret is made and shown to you once. The current secret keeps working beside it for {DEFAULT_OVERLAP_HOURS} hours.</p>
            <p>
              During those hours every {kind} is signed with both secrets, so {words.receiver}'s receiver accepts it with either: put the new secret in
              it before they end. After that only the new secret signs, and a receiver still using the old one rejects every {kind} until it has the
              new one.
            </p>
            <ConfirmForm links={links} action={rotatePath(kind)} button="Rotate secret" back={`${PAGE}#endpoint-${kind}`} />
          </>
        ) : (
          <>
            <p>There is no {kind} URL yet, so there is no secret to rotate: saving the first URL makes one.</p>
            <p>
              <a href={links.to(`${PAGE}#endpoint-${kind}`)}>Back to Integrations</a>
            </p>
          </>
        )}
      </Page>
    ),
  };
};

export const rotateSecret: PageAction = async (request): Promise<PageOutcome> => {
  const kind = endpointKind(request);
  if (!confirmedByForm(request)) return { redirect: rotatePath(kind) };
  // A new secret shown once: the password again first (shared/dashboard/reauthentication.tsx).
  const action: ConfirmedAction = {
    path: rotatePath(kind),
    what: `rotate the ${kind} signing secret`,
    details: [['Receiver', ENDPOINT_WORDS[kind].receiver]],
    button: 'Confirm and rotate secret',
    nav: 'integrations',
    back: `${PAGE}#endpoint-${kind}`,
  };
  return withRecentPassword(request, action, async () => {
    let rotated;
    try {
      rotated = await rotateSigningSecret(request.operator, kind, DEFAULT_OVERLAP_HOURS, request.now);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return { redirect: PAGE, notice: { kind: 'error', message: `The secret was not rotated: ${error.message}` } };
      throw error;
    }
    const until = hotelTime(timeZoneOf(await requireClient(request.operator.client_id)), rotated.previous_valid_until);
    return {
      redirect: PAGE,
      notice: {
        kind: 'success',
        message: `The ${kind} signing secret was rotated: the previous secret works until ${until}. Put the new one in ${ENDPOINT_WORDS[kind].receiver}'s receiver before then.`,
        secret: { label: 'Signing secret', value: rotated.secret },
      },
    };
  });
};
