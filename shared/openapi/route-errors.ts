/** The error responses of a route: its own codes plus those every route of its kind answers. */
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { type Route, servedByApi } from '../../definitions/routes';
import { MAX_BODY_BYTES, MAX_IDEMPOTENCY_KEY_LENGTH } from '../config';
import { errorEnvelope } from '../schemas/responses';
import { ERROR_CODES, type ErrorCode } from './error-codes';
import { EXAMPLE_REQUEST_ID } from './examples';
import { headerRef } from './headers';
import { type ErrorNote, json, type Operation, operationOf } from './operations';

/** Codes every route of this kind can answer, with what triggers them. */
function commonErrors(route: Route, operation: Operation): ErrorNote[] {
  const notes: ErrorNote[] = [];
  if (route.auth.kind !== 'public') {
    notes.push({ code: 'MISSING_API_KEY' }, { code: 'INVALID_API_KEY' }, { code: 'INSUFFICIENT_SCOPE' });
    if (route.auth.kind === 'payment' || route.auth.kind === 'key') notes.push({ code: 'ORIGIN_NOT_ALLOWED' });
  }
  if (operation.jsonBody) {
    notes.push(
      { code: 'UNSUPPORTED_MEDIA_TYPE' },
      { code: 'INVALID_JSON' },
      {
        code: 'VALIDATION_ERROR',
        when: operation.bodyValidation ?? 'The body does not match the schema; `details[]` names each problem (`path` like `rooms[3].price`).',
      },
    );
  }
  if (route.idempotent) {
    notes.push(
      { code: 'VALIDATION_ERROR', when: `The \`Idempotency-Key\` header is empty or longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.` },
      { code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS' },
      { code: 'IDEMPOTENCY_KEY_REUSED' },
    );
  }
  // API Gateway's own refusals; the sandbox's origin (a function URL) has no gateway in front.
  const onApi = servedByApi(route);
  notes.push(
    onApi
      ? { code: 'VALIDATION_ERROR', when: 'The gateway refused a malformed request (oversized headers, a broken request line, a bad percent-escape in the path).' }
      : { code: 'VALIDATION_ERROR', when: 'A bad percent-escape in the path.' },
    { code: 'PAYLOAD_TOO_LARGE', when: `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB.` },
    ...(onApi ? [{ code: 'RATE_LIMITED' } as const] : []),
    { code: 'INTERNAL_ERROR' },
    { code: 'SERVICE_UNAVAILABLE' },
  );
  return notes;
}

const CODE_ORDER = Object.keys(ERROR_CODES) as ErrorCode[];

/** Error codes by status (ascending), each with its reasons; codes in the catalogue's order. */
export function errorsOf(route: Route): Map<number, Map<ErrorCode, string[]>> {
  const operation = operationOf(route);
  const reasonsByCode = new Map<ErrorCode, string[]>();
  for (const note of [...(operation.errors ?? []), ...commonErrors(route, operation)]) {
    const reasons = reasonsByCode.get(note.code) ?? [];
    const reason = note.when ?? ERROR_CODES[note.code].meaning;
    if (!reasons.includes(reason)) reasons.push(reason);
    reasonsByCode.set(note.code, reasons);
  }
  const byStatus = new Map<number, Map<ErrorCode, string[]>>();
  for (const code of CODE_ORDER.filter((c) => reasonsByCode.has(c))) {
    const status = ERROR_CODES[code].status;
    const codes = byStatus.get(status) ?? new Map<ErrorCode, string[]>();
    codes.set(code, reasonsByCode.get(code)!);
    byStatus.set(status, codes);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'No valid API key',
  403: 'Not allowed for this key',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Not processable',
  429: 'Rate limited',
  500: 'Internal error',
  503: 'Temporarily unavailable',
};

export function errorResponse(route: Route, status: number, codes: Map<ErrorCode, string[]>): ResponseConfig {
  const operation = operationOf(route);
  const list = [...codes.keys()] as [ErrorCode, ...ErrorCode[]];
  const first = list.find((code) => operation.errorExamples?.[code]) ?? list[0];
  const example = operation.errorExamples?.[first] ?? {
    message: ERROR_CODES[first].message,
    ...(first === 'VALIDATION_ERROR' ? { details: [{ path: '(root)', message: 'Malformed HTTP request' }] } : {}),
  };
  const retryAfter = list.some((c) => c === 'RATE_LIMITED' || c === 'SERVICE_UNAVAILABLE' || c === 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
  const replayable = route.idempotent && (status === 400 || status === 409 || status === 422);
  return {
    description: [
      `${STATUS_TEXT[status] ?? 'Error'}. \`error.code\` is one of:`,
      '',
      ...list.map((code) => {
        const reasons = codes.get(code)!;
        return reasons.length === 1 ? `- \`${code}\`: ${reasons[0]}` : [`- \`${code}\`:`, ...reasons.map((r) => `  - ${r}`)].join('\n');
      }),
    ].join('\n'),
    headers: {
      'X-Request-Id': headerRef('X-Request-Id'),
      ...(retryAfter
        ? {
            'Retry-After': {
              ...headerRef('Retry-After'),
              ...(status === 409 ? { description: 'With `IDEMPOTENCY_REQUEST_IN_PROGRESS`.' } : {}),
            },
          }
        : {}),
      ...(replayable ? { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') } : {}),
    } as never,
    content: json(errorEnvelope(list), {
      error: { code: first, message: example.message, request_id: EXAMPLE_REQUEST_ID, ...(example.details ? { details: example.details } : {}) },
    }),
  };
}
