/**
 * The local gateway's own answers: the stack's gateway responses (definitions/gateway-responses.ts)
 * rendered as API Gateway renders them, and the answer to a request Node's HTTP parser refuses.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type GatewayResponseType, gatewayResponseHeaders, gatewayResponses } from '../../definitions/gateway-responses';

export interface TemplateContext {
  requestId: string;
  authorizer?: Record<string, unknown>;
  errorMessage?: string;
}

export function renderTemplate(template: string, context: TemplateContext): string {
  return template
    .replaceAll('$context.requestId', context.requestId)
    .replaceAll('$context.error.messageString', JSON.stringify(context.errorMessage ?? ''))
    .replace(/\$context\.authorizer\.([A-Za-z0-9_]+)/g, (_, key: string) => String(context.authorizer?.[key] ?? ''));
}

/** Evaluates a mapping expression: `'literal'` or `context.requestId`. */
function mappingValue(expression: string, context: TemplateContext): string {
  if (expression.startsWith("'") && expression.endsWith("'")) return expression.slice(1, -1);
  if (expression === 'context.requestId') return context.requestId;
  throw new Error(`Unsupported mapping expression ${expression}`);
}

/**
 * The response of that type. `status` is API Gateway's own status for the case: DEFAULT_4XX and
 * DEFAULT_5XX keep it (they define none); a type that defines one always answers that one.
 */
function gatewayResponse(type: GatewayResponseType, context: TemplateContext, status?: number) {
  const definition = gatewayResponses.find((g) => g.type === type);
  if (!definition) throw new Error(`No gateway response ${type}`);
  const headers: Record<string, string> = {};
  for (const [name, expression] of Object.entries({ ...gatewayResponseHeaders, ...definition.headers })) {
    headers[name] = mappingValue(expression, context);
  }
  const answered = definition.statusCode ? Number(definition.statusCode) : status;
  if (answered === undefined) throw new Error(`${type} keeps API Gateway's status: pass it`);
  return { status: answered, headers, body: renderTemplate(definition.template, context) };
}

export function sendGatewayResponse(res: ServerResponse, type: GatewayResponseType, context: TemplateContext, status?: number) {
  const response = gatewayResponse(type, context, status);
  res.writeHead(response.status, response.headers);
  res.end(response.body);
  return response.status;
}

/**
 * A request the HTTP parser refuses (oversized or malformed headers, a broken request line):
 * API Gateway answers those itself, so here too they get the DEFAULT_4XX gateway response in
 * the error envelope instead of Node's bare status line.
 */
export function refuseMalformedRequest(error: NodeJS.ErrnoException, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || error.code === 'ECONNRESET' || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const message = error.code === 'HPE_HEADER_OVERFLOW' ? 'Request header fields too large' : 'Malformed HTTP request';
  const response = gatewayResponse('DEFAULT_4XX', { requestId: randomUUID(), errorMessage: message }, 400);
  const head = [
    `HTTP/1.1 ${response.status} Bad Request`,
    ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(response.body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${response.body}`);
}
