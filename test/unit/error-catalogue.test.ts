/**
 * The error catalogue (shared/errors.ts): the one module that builds errors from a literal code;
 * each of its constructors answers with the code and status shared/openapi/error-codes.ts
 * documents; and each says one thing one way (a code's constructors never produce the same text
 * twice, and none takes its whole message from its caller but the validation summary).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_STATUS, type ErrorCode, type ErrorName, errors } from '../../shared/errors';
import { ERROR_CODES, ERROR_EXAMPLES } from '../../shared/openapi/error-codes';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE_DIRS = ['shared', 'functions', 'definitions', 'infra', 'bin'];
/** The catalogue, and the one other file that may build an error from a literal code (the envelope). */
const MAY_BUILD_FROM_A_LITERAL = ['shared/errors.ts', 'shared/http/error-envelope.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(path) && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The first two arguments of the call whose `(` is at `open`, as source text (strings and nesting respected). */
function firstArguments(source: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < source.length; i++) {
    const c = source[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = source.indexOf(c, i + 1);
      i = end < 0 ? source.length : end;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return [...args, source.slice(start, i)];
    } else if (c === ',' && depth === 1) {
      args.push(source.slice(start, i));
      start = i + 1;
      if (args.length === 2) return args;
    }
  }
  return args;
}

/** `new AppError(…)`, and `super(…)` in a class extending AppError, whose code argument holds a string literal. */
function buildsFromALiteral(source: string): boolean {
  const calls = [...source.matchAll(/new AppError\(/g)].map((m) => m.index! + m[0].length - 1);
  if (/extends AppError\b/.test(source)) calls.push(...[...source.matchAll(/\bsuper\(/g)].map((m) => m.index! + m[0].length - 1));
  return calls.some((open) => /['"`][A-Z][A-Z0-9_]+['"`]/.test(firstArguments(source, open)[1] ?? ''));
}

/** Arguments for every constructor (type-checked: a new constructor needs its line here). */
const detail = [{ path: 'p', message: 'm' }];
const SAMPLES: { [K in ErrorName]: Parameters<(typeof errors)[K]> } = {
  invalidApiKey: [],
  insufficientScope: [],
  missingScope: ['rooms:write'],
  validation: [detail],
  invalidJson: [],
  unsupportedMediaType: [],
  payloadTooLarge: [],
  tooManyItems: ['rooms', 500],
  tooManyPlanDays: [20_000],
  notFound: [],
  noSuchRoute: [],
  methodNotAllowed: [['GET']],
  idempotencyKeyReused: [],
  idempotencyRequestInProgress: [],
  serviceUnavailable: [],
  internal: [],
  unknownReference: [detail],
  syncRoomNumberConflict: [detail],
  syncRoomNumberTakenMidway: [detail],
  syncOutOfTime: [],
  invalidAmount: [1000],
  invalidCurrency: [],
  currencyNotSupported: ['XYZ'],
  customerEmailRequired: [],
  returnUrlNotAllowed: ['success_url', 'https://a.example'],
  externalReferenceConflict: ['INV-1'],
  paymentOrderNotFound: ['PO-1'],
  refundExceedsPayment: ['PO-1', 500],
  orderNotPaid: ['PO-1', 'processing'],
  noSuchCheckoutSession: [],
  stripeWebhooksNotConfigured: [],
  stripeSignatureMissing: [],
  stripeSignatureMismatch: [],
  stripeAccountMissing: [],
  stripeAccountNotConnected: ['acct_1'],
  providerRejected: ['card_declined', 'Declined'],
  providerRejectedRefund: ['charge_already_refunded', 'Charge has already been refunded.'],
  sandboxProviderUnavailable: [],
  noProviderConfigured: [],
  onlinePaymentUnavailable: ['XYZ'],
  unknownProvider: [['sandbox', 'stripe']],
  stripeAccountRequired: [],
  accountForStripeOnly: [],
  sandboxProviderOff: [],
  notAStripeAccount: ['nope'],
  stripeAccountNotLinked: ['acct_1'],
  clientNotFound: ['c-1'],
  clientNameRequired: [],
  clientCurrencyInvalid: [],
  unknownPlan: [['standard', 'premium']],
  planRequired: [['premium'], 'standard'],
  unknownScopes: [['x'], ['rooms:write']],
  paymentKeyScopes: [],
  notAnOrigin: ['nowhere'],
  originsForPaymentKeys: [],
  noSuchKey: [],
  apiKeyNotFound: ['k-1'],
  chooseKeyKind: [],
  notAnEmail: ['x'],
  unknownRole: ['x'],
  unknownMfaSetting: ['x', ['optional']],
  weakPassword: ['a digit'],
  operatorExists: ['a@b.example'],
  operatorNotFound: ['a@b.example'],
  roomNotFound: ['r-1'],
  roomNumberTaken: ['101'],
  bookingNotFound: ['b-1'],
  bookingRoomNotFound: ['r-1', 'no such room'],
  bookingRoomNotAvailable: ['r-1', 'it is taken'],
  bookingAlreadyAssigned: ['b-1', 'r-1'],
  bookingSyncedFromPms: ['b-1', 'pms'],
  bookingNotActive: ['b-1', 'cancelled'],
  bookingOwnedByPms: ['b-1', 'pms'],
  bookingNotCancellable: ['b-1', 'checked_in'],
  freeCancellationEnded: ['b-1', '2027-01-01T13:00:00.000Z'],
  bookingNotChangeable: ['b-1', 'cancelled'],
  noShowTooEarly: ['b-1', '2027-01-01'],
  bookingChangeInvalid: [detail],
  roomNotAssignable: ['101', 'r-1', 'it is taken'],
  receptionRoomUnknown: [],
  receptionRoomInactive: ['101'],
  receptionRoomTooSmall: ['101', 2],
  receptionRoomTaken: ['101'],
  slugInvalid: ['Hale Kai'],
  roomTypeTaken: ['Deluxe'],
  slugTaken: ['hale-kai'],
  secretTooShort: [],
  endpointNotSet: ['callback'],
  deliveryNotFound: ['d-1'],
  deliveryNotRetryable: ['d-1', 'delivered'],
  noSuchHotel: [],
  noSuchGuestRoom: [],
  roomNotBookable: ['101', 'it is taken'],
  roomHasNoPrice: ['101'],
  payAtPropertyDisabled: [],
  emailNotConfigured: [],
  tooManyOpenHolds: [3, 600],
  tooManyConfirmEmails: [3, 600],
  noSuchPage: [],
  noSuchBooking: [],
  noSuchPaymentOrder: [],
  noSuchDelivery: [],
  formTooLarge: [],
  formNotUrlEncoded: [],
  crossSiteForm: [],
  integrationsAdminOnly: [],
  ratesAdminOnly: [],
};
/** Constructors whose message is their caller's: the validation summary of its details. */
const MESSAGE_FROM_CALLER: ErrorName[] = ['validation'];

const built = (Object.keys(SAMPLES) as ErrorName[]).map((name) => {
  const error = (errors[name] as (...args: unknown[]) => AppError)(...SAMPLES[name]);
  return { name, error };
});

describe('the error catalogue', () => {
  it('is the only module that builds an error from a literal code', () => {
    const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .filter((file) => buildsFromALiteral(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file).split('\\').join('/'))
      .sort();
    const others = files.filter((file) => !MAY_BUILD_FROM_A_LITERAL.includes(file));
    expect(others, `these files build an AppError from a literal code; use a constructor of shared/errors.ts: ${others.join(', ')}`).toEqual([]);
    expect(files.length, files.join(', ')).toBeLessThanOrEqual(2);
  });

  it('recognises an error built from a literal code, however its status is written', () => {
    expect(buildsFromALiteral("throw new AppError(404, 'NOT_FOUND', `No room ${id}`);")).toBe(true);
    expect(buildsFromALiteral("new AppError(\n  status,\n  status === 404 ? 'NOT_FOUND' : 'ROOM_NOT_AVAILABLE',\n  message,\n)")).toBe(true);
    expect(buildsFromALiteral("class A extends AppError { constructor() { super(f(1, 2), 'CODE', 'm'); } }")).toBe(true);
    expect(buildsFromALiteral("class A extends AppError { constructor(r: AppError) { super(r.status, r.code, r.message); } }")).toBe(false);
    expect(buildsFromALiteral("new AppError(ERROR_STATUS[code], code, message, details, headers)")).toBe(false);
  });

  it('answers every constructor with a documented code and its documented status', () => {
    expect(Object.keys(errors).sort()).toEqual(Object.keys(SAMPLES).sort());
    for (const { name, error } of built) {
      expect(error, name).toBeInstanceOf(AppError);
      expect(Object.keys(ERROR_CODES), name).toContain(error.code);
      expect(`${name} ${error.code} ${error.status}`).toBe(`${name} ${error.code} ${ERROR_CODES[error.code as ErrorCode].status}`);
    }
    expect(Object.keys(ERROR_CODES).sort()).toEqual(Object.keys(ERROR_STATUS).sort());
  });

  it('documents each code with an example built by the catalogue, or a code only API Gateway or the authorizer sends', () => {
    const constructed = new Set(built.map(({ error }) => error.code));
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      const example = ERROR_EXAMPLES[code];
      if (example) expect(`${code}: ${example.code} ${example.status}`).toBe(`${code}: ${code} ${ERROR_STATUS[code]}`);
      if (example) expect(ERROR_CODES[code].message).toBe(example.message);
      if (!constructed.has(code)) expect(['MISSING_API_KEY', 'ORIGIN_NOT_ALLOWED'], `${code} has no constructor`).toContain(code);
    }
  });

  it('says each thing one way: a code never has two constructors with the same text, and the text is the catalogue\'s', () => {
    const byCode = new Map<string, Map<string, ErrorName>>();
    for (const { name, error } of built) {
      const texts = byCode.get(error.code) ?? new Map<string, ErrorName>();
      const twin = texts.get(error.message);
      expect(twin, `${name} and ${twin} of ${error.code} both say "${error.message}": keep one`).toBeUndefined();
      texts.set(error.message, name);
      byCode.set(error.code, texts);
      if (MESSAGE_FROM_CALLER.includes(name)) continue;
      // The text is the constructor's: no argument is the whole message.
      const strings = (SAMPLES[name] as unknown[]).filter((a): a is string => typeof a === 'string');
      expect(strings, `${name} takes its message from its caller`).not.toContain(error.message);
    }
  });

  it('gives one constructor the same text whatever it is called with, but its arguments', () => {
    // Two calls with other arguments differ only where the arguments are: a template, not a choice of texts.
    for (const { name, error } of built) {
      const args = SAMPLES[name] as unknown[];
      if (MESSAGE_FROM_CALLER.includes(name) || !args.some((a) => typeof a === 'string')) continue;
      const other = args.map((a) => (typeof a === 'string' ? `${a}~` : a));
      const again = (errors[name] as (...args: unknown[]) => AppError)(...other);
      const fixed = (message: string, values: unknown[]) =>
        values.filter((v): v is string => typeof v === 'string' && v !== '').reduce((text, v) => text.split(v).join('{}'), message);
      expect(fixed(again.message, other), name).toBe(fixed(error.message, args));
    }
  });
});
