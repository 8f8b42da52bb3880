/**
 * HTTP/1.1 over a plain socket, for requests fetch will not send: duplicated or oversized
 * headers, control characters, raw bytes, unnormalised paths. Loopback only; every request
 * has a deadline, so a server that hangs fails the test instead of stalling it.
 */
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target exactly as sent (not normalised, not encoded). */
  target: string;
  /** Header lines in order; duplicates allowed. Values are sent as latin1 bytes. */
  headers?: [string, string][];
  body?: Buffer | string;
  /** Leave out the Content-Length header (the caller sends its own, or none). */
  omitContentLength?: boolean;
}

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
  ms: number;
}

export class RequestTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`no complete response within ${ms} ms: ${what}`);
    this.name = 'RequestTimeout';
  }
}

function decodeChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseResponse(raw: Buffer, ms: number): RawResponse {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`incomplete response: ${JSON.stringify(raw.subarray(0, 200).toString('latin1'))}`);
  const [statusLine, ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!status) throw new Error(`not an HTTP response: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = raw.subarray(headEnd + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = decodeChunked(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, body, text, json, ms };
}

/** Sends one request on a new connection (Connection: close) and reads the whole response. */
export function rawRequest(baseUrl: string, request: RawRequest, timeoutMs = 5_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') throw new Error(`loopback only, not ${hostname}`);
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const lines = [`${request.method} ${request.target} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
  for (const [name, value] of request.headers ?? []) lines.push(`${name}: ${value}`);
  if (!request.omitContentLength) lines.push(`Content-Length: ${body?.length ?? 0}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');

  const started = performance.now();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ host: hostname, port: Number(port) });
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      try {
        resolve(parseResponse(Buffer.concat(chunks), Math.round(performance.now() - started)));
      } catch (parseError) {
        reject(parseError);
      }
    };
    const timer = setTimeout(() => finish(new RequestTimeout(`${request.method} ${request.target.slice(0, 120)}`, timeoutMs)), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (error) => {
      // The server may answer and close before it read the whole (too large) body.
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'ECONNRESET' || code === 'EPIPE') && chunks.length) return finish();
      finish(error);
    });
    socket.write(head);
    if (body?.length) socket.write(body);
  });
}
