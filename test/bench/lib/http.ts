/** A small keep-alive HTTP client for the bench (cheaper and steadier than fetch per call). */
import { Agent, request } from 'node:http';

export interface BenchResponse<T = any> {
  status: number;
  body: T;
  text: string;
}

export function httpClient(baseUrl: string, maxSockets = 16) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const base = new URL(baseUrl);
  async function send<T = any>(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<BenchResponse<T>> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.Authorization = `Bearer ${options.key}`;
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      const req = request({ host: base.hostname, port: base.port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // keep text
          }
          resolve({ status: res.statusCode ?? 0, body: body as T, text });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }
  return { send, close: () => agent.destroy() };
}

export type HttpClient = ReturnType<typeof httpClient>;

/** Fails with the response when the status is not the expected one. */
export function expectStatus(response: BenchResponse, ...statuses: number[]): void {
  if (!statuses.includes(response.status)) {
    throw new Error(`expected HTTP ${statuses.join('/')} but got ${response.status}: ${response.text.slice(0, 500)}`);
  }
}
