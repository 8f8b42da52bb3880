/**
 * POSTs to a client's URL without ever connecting inside the network (docs/behaviour.md "Payment
 * safety in deployed stages"). The host is resolved once, every address of the answer is checked
 * (one refused address refuses the attempt), and the connection is pinned to the checked
 * addresses through a `lookup` that answers with them: a rebinding answer between check and
 * connect is never asked for. TLS SNI and the Host header stay the URL's hostname.
 *
 * Connections are kept alive and reused for the same host and port, as the AWS SDK's are: a
 * receiver sent a backlog (a replay, a sweep) is not made to accept, and for HTTPS to negotiate
 * TLS, once per delivery. Every connection was opened to an address checked at the time, and the
 * host's current answer is checked before each attempt all the same, so a reused connection
 * reaches nothing a new one could not. A kept connection the receiver has closed meanwhile (its
 * idle timeout, or a Lambda instance frozen between invocations) fails before any answer: the
 * attempt is made once more on a new connection.
 *
 * DNS: a node:dns Resolver (c-ares) in every stage rather than dns.lookup (getaddrinfo). In
 * Lambda both ask the nameserver of /etc/resolv.conf; the Resolver does it without holding a
 * libuv thread, with a timeout and cancellation, and returns every A and AAAA record. The only
 * difference between AWS and the tests is `setServers(DNS_SERVERS)`. It does not read
 * /etc/hosts: `localhost` names are loopback by definition and never asked.
 */
import { Resolver } from 'node:dns/promises';
import { Agent as HttpAgent, type ClientRequest, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type AddressPolicy, bareHost, describeHostRefusal, describeRefusal, isLoopbackName, refusedAddress, refusedHost } from './address-policy';

export type PostResult =
  | { kind: 'response'; statusCode: number }
  /** The URL points inside the network: not sent. */
  | { kind: 'refused'; error: string }
  /** DNS, connection or timeout: nothing (or no status) came back. */
  | { kind: 'failed'; error: string };

export interface PostOptions extends AddressPolicy {
  headers: Record<string, string>;
  body: string;
  /** For the whole attempt: DNS, connect, request and response. */
  timeoutMs: number;
  /** Nameservers to ask (`ip` or `ip:port`); empty: the system's. */
  dnsServers: readonly string[];
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

// Per query and try; the attempt's own deadline cancels the queries in any case.
const DNS_TIMEOUT_MS = 2_000;
const DNS_TRIES = 2;

// An idle connection is closed after 4 s, before the 5 s after which common servers (Node's
// among them) close theirs, so it is seldom reused just as the receiver closes it.
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000 } as const;
const agents = { 'http:': new HttpAgent(KEEP_ALIVE), 'https:': new HttpsAgent(KEEP_ALIVE) } as const;

export async function postOutbound(url: string, options: PostOptions): Promise<PostResult> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    return { kind: 'refused', error: `refused: ${target.protocol} URLs are not sent` };
  }
  const host = bareHost(target.hostname);
  const literal = refusedHost(host, options);
  if (literal) return { kind: 'refused', error: `refused: ${describeHostRefusal(host, literal)}` };

  let addresses: ResolvedAddress[];
  try {
    addresses = await resolveHost(host, { servers: options.dnsServers, signal });
  } catch (error) {
    return failure(error, signal, options.timeoutMs);
  }
  for (const { address } of addresses) {
    const refusal = refusedAddress(address, options);
    if (refusal) return { kind: 'refused', error: `refused: ${host} resolved to ${address} (${describeRefusal(refusal)})` };
  }
  return send(target, addresses, options, signal);
}

/** Every address of a host: a literal itself, `localhost` names loopback, else A and AAAA records. */
export async function resolveHost(hostname: string, options: { servers: readonly string[]; signal: AbortSignal }): Promise<ResolvedAddress[]> {
  const host = bareHost(hostname);
  const family = isIP(host);
  if (family === 4 || family === 6) return [{ address: host, family }];
  if (isLoopbackName(host)) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];

  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (options.servers.length) resolver.setServers(options.servers);
  const cancel = () => resolver.cancel();
  options.signal.addEventListener('abort', cancel, { once: true });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (addresses.length) return addresses;
    // Neither family has an address: report a failure ahead of "no record of this type".
    const errors = [v4, v6].flatMap((result) => (result.status === 'rejected' ? [result.reason as NodeJS.ErrnoException] : []));
    throw errors.find((error) => error.code !== 'ENODATA') ?? errors[0] ?? dnsError(`no address for ${host}`, 'ENODATA');
  } finally {
    options.signal.removeEventListener('abort', cancel);
  }
}

/** A DNS failure as node:dns reports one (its errno in `code`); not an API error code. */
const dnsError = (message: string, errno: 'ENODATA' | 'ENOTFOUND'): NodeJS.ErrnoException => Object.assign(new Error(message), { code: errno });

/** A `lookup` for the connection that answers with the checked addresses and asks nobody. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
    const [first] = usable;
    if (!first) {
      callback(dnsError(`no IPv${family} address for ${hostname}`, 'ENOTFOUND'), '', 0);
    } else if (options.all) {
      callback(null, usable.map(({ address, family }) => ({ address, family })));
    } else {
      callback(null, first.address, first.family);
    }
  };
}

function send(target: URL, addresses: readonly ResolvedAddress[], options: PostOptions, signal: AbortSignal, retried = false): Promise<PostResult> {
  return new Promise((resolve) => {
    const request: ClientRequest = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) },
        // A new connection is opened to the checked addresses only.
        lookup: pinnedLookup(addresses),
        agent: agents[target.protocol as keyof typeof agents],
        signal,
      },
      (response) => {
        // The status is the answer; the body is drained (up to the deadline) so the connection can serve the next.
        const result: PostResult = { kind: 'response', statusCode: response.statusCode ?? 0 };
        response.on('error', () => resolve(result));
        response.on('end', () => resolve(result));
        response.on('close', () => resolve(result));
        response.resume();
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A kept connection the receiver closed before this request reached it: once more, on a new one.
      if (request.reusedSocket && !retried && !signal.aborted && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
        resolve(send(target, addresses, options, signal, true));
        return;
      }
      resolve(failure(error, signal, options.timeoutMs));
    });
    request.end(options.body);
  });
}

function failure(error: unknown, signal: AbortSignal, timeoutMs: number): PostResult {
  if (signal.aborted) return { kind: 'failed', error: `no response within ${timeoutMs / 1000} s` };
  const { code, name, message } = error as NodeJS.ErrnoException;
  return { kind: 'failed', error: `${code ?? name}: ${message}` };
}
