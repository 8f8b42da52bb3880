/** A callback receiver on loopback for the callback benchmarks: when each delivery id arrived. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CallbackReceiver {
  url: string;
  /** Arrival times (performance.now()) by X-Service-Delivery id. */
  arrivals: Map<string, number[]>;
  lastAt(): number;
  close(): Promise<void>;
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const arrivals = new Map<string, number[]>();
  let last = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-service-delivery'] ?? '');
      const at = performance.now();
      const list = arrivals.get(id) ?? [];
      list.push(at);
      arrivals.set(id, list);
      last = Math.max(last, at);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/booking`,
    arrivals,
    lastAt: () => last,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 20) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
