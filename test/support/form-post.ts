/**
 * A browser's form POST from a loopback address of the test's choosing (127.0.0.2, 127.0.0.3...
 * all reach a server listening on 127.0.0.1 on Linux): the gateway sees that address as the
 * caller's, so tests that stand for different guests count as different sources (the booking
 * page's open holds per address). fetch cannot choose its source address; node:http can.
 */
import { request } from 'node:http';

export interface FormAnswer {
  status: number;
  headers: Headers;
  html: string;
  location?: string;
}

export function postForm(url: string, form: Record<string, string>, options: { origin: string; from: string }): Promise<FormAnswer> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: options.from,
        headers: { origin: options.origin, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          resolve({ status: res.statusCode ?? 0, headers, html: Buffer.concat(chunks).toString('utf8'), location: headers.get('location') ?? undefined });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within 30 s: POST ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A page's answer to a GET or a form POST, redirects not followed. */
export interface PageAnswer {
  status: number;
  html: string;
  location?: string;
}

/** GET and form POST on the stack's pages as a browser on its origin sends them (no redirect followed). */
export function pagesOf(baseUrl: string) {
  const answer = async (response: Response): Promise<PageAnswer> => ({
    status: response.status,
    html: await response.text(),
    location: response.headers.get('location') ?? undefined,
  });
  return {
    get: async (path: string) => answer(await fetch(new URL(path, baseUrl), { redirect: 'manual' })),
    post: async (path: string, form: Record<string, string> = {}) =>
      answer(
        await fetch(new URL(path, baseUrl), {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        }),
      ),
  };
}
