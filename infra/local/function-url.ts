/**
 * A Lambda function URL on this machine: a server on a port of its own that hands every request,
 * whatever its method and path, to one function as a payload format 2.0 event, as Lambda's
 * function URLs do (https://docs.aws.amazon.com/lambda/latest/dg/urls-invocation.html#urls-payloads),
 * and writes back its answer. The local stack serves the sandbox checkout's origin with it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';
import { invoke, type LocalFunction } from './lambda-runtime';

/** A function URL's own limit on a request's payload (the function refuses more than 1 MiB itself). */
const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;

export interface LocalFunctionUrl {
  url: string;
  port: number;
  /** Stops taking requests, lets those in flight finish for up to `drainMs`, then closes every connection. */
  close(options?: { drainMs?: number }): Promise<void>;
}

/**
 * What Lambda passes as text; anything else arrives base64-encoded (`isBase64Encoded`), as a
 * function URL does with a body it takes for binary. A form's urlencoded body comes encoded, so the
 * function's decoding is exercised here too.
 */
const isText = (contentType: string) => /^(text\/|application\/(json|xml|javascript)\b)/i.test(contentType);

function toEvent(req: IncomingMessage, body: Buffer, port: number): LambdaFunctionURLEvent {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  // Lower-case names, repeated headers joined with commas, and the Cookie header as `cookies`.
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  const cookies = headers.cookie?.split(/;\s*/).filter(Boolean);
  delete headers.cookie;
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  const now = new Date();
  const requestId = randomUUID();
  const host = headers.host ?? `127.0.0.1:${port}`;
  const text = isText(headers['content-type'] ?? '');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: 'anonymous',
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split('.')[0]!,
      http: { method: (req.method ?? 'GET').toUpperCase(), path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !text,
  };
}

/** Writes a function URL response; a function that fails or answers nothing usable is a 502, as Lambda answers. */
function writeResult(res: ServerResponse, result: unknown, requestId: string): number {
  if (!result || typeof result !== 'object' || typeof (result as APIGatewayProxyStructuredResultV2).statusCode !== 'number') {
    res.writeHead(502, { 'Content-Type': 'application/json', 'x-amzn-RequestId': requestId });
    res.end('{"Message":"Internal Server Error"}');
    return 502;
  }
  const answer = result as APIGatewayProxyStructuredResultV2;
  const headers: Record<string, string | string[]> = { 'x-amzn-RequestId': requestId };
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name] = String(value);
  if (answer.cookies?.length) headers['Set-Cookie'] = answer.cookies;
  res.writeHead(answer.statusCode!, headers);
  res.end(answer.isBase64Encoded ? Buffer.from(answer.body ?? '', 'base64') : (answer.body ?? ''));
  return answer.statusCode!;
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function startLocalFunctionUrl(options: {
  /** The function, read on every request as the gateway reads the route table (a test may change its declared access). */
  fn: () => LocalFunction;
  port: number;
  timeoutMs: number;
  /** Called once per request with a one-line summary. */
  onRequest?: (line: string) => void;
}): Promise<LocalFunctionUrl> {
  const inFlight = new Set<Promise<void>>();
  let port = options.port;
  const server = createServer((req, res) => {
    const started = performance.now();
    const answered = new Promise<void>((resolve) => res.once('close', resolve));
    inFlight.add(answered);
    void answered.then(() => inFlight.delete(answered));
    (async () => {
      const body = await readBody(req);
      if (body === 'too-large') {
        res.writeHead(413, { 'Content-Type': 'application/json' });
        res.end('{"Message":"Request must be smaller than 6291456 bytes for the InvokeFunction operation"}');
        return 413;
      }
      const event = toEvent(req, body, port);
      const fn = options.fn();
      let result: unknown;
      try {
        result = await invoke(fn, event, options.timeoutMs);
      } catch (error) {
        console.error(`function ${fn.name} failed:`, error);
        result = undefined;
      }
      return writeResult(res, result, event.requestContext.requestId);
    })().then(
      (status) => options.onRequest?.(`${req.method} ${req.url} ${status} ${Math.round(performance.now() - started)}ms`),
      (error: unknown) => {
        console.error('local function URL error:', error);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close({ drainMs = 0 } = {}) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight.size && drainMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(inFlight), new Promise((resolve) => (timer = setTimeout(resolve, drainMs)))]);
        clearTimeout(timer);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
