/**
 * A DNS responder on 127.0.0.1 (UDP) for the callback sender's "test DNS answer": it answers A
 * and AAAA questions for the names a test gives it, NXDOMAIN for any other, with TTL 0. Give
 * `address` to the service as DNS_SERVERS.
 */
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';

export interface DnsQuery {
  name: string;
  type: 'A' | 'AAAA' | number;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`. */
  address: string;
  /** Every question asked, in order. */
  queries: DnsQuery[];
  /** The addresses a name resolves to; a function answers each question anew (rebinding). */
  answer(name: string, addresses: string[] | (() => string[])): void;
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;
const NXDOMAIN = 3;

export async function startDnsServer(): Promise<TestDnsServer> {
  const names = new Map<string, () => string[]>();
  const queries: DnsQuery[] = [];
  const socket = createSocket('udp4');

  socket.on('message', (query, peer) => {
    if (query.length < 12) return;
    // The question: labels up to a zero byte, then type and class.
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at]! > 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('ascii'));
      at += 1 + query[at]!;
    }
    const questionEnd = at + 5;
    if (questionEnd > query.length) return;
    const name = labels.join('.').toLowerCase();
    const type = query.readUInt16BE(at + 1);
    queries.push({ name, type: type === TYPE_A ? 'A' : type === TYPE_AAAA ? 'AAAA' : type });

    const known = names.get(name);
    const family = type === TYPE_A ? 4 : type === TYPE_AAAA ? 6 : 0;
    const addresses = (known?.() ?? []).filter((address) => isIP(address) === family);
    const answers = addresses.map((address) => {
      const data = family === 4 ? Buffer.from(address.split('.').map(Number)) : ipv6Bytes(address);
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(type, 2);
      record.writeUInt16BE(1, 4); // class IN
      record.writeUInt32BE(0, 6); // TTL 0: never cached
      record.writeUInt16BE(data.length, 10);
      return Buffer.concat([record, data]);
    });
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    const recursionDesired = query[2]! & 0x01;
    header.writeUInt16BE(0x8480 | (recursionDesired << 8) | (known ? 0 : NXDOMAIN), 2); // response, authoritative, RA
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...answers]), peer.port, peer.address);
  });

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    answer(name, addresses) {
      names.set(name.toLowerCase(), typeof addresses === 'function' ? addresses : () => addresses);
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** The 16 bytes of an IPv6 address, including `::` and a trailing dotted IPv4 part. */
function ipv6Bytes(address: string): Buffer {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail ?? '').length;
  const all = tail === undefined ? groups(head) : [...groups(head), ...Array<string>(missing).fill('0'), ...groups(tail)];
  const bytes = Buffer.alloc(16);
  all.forEach((group, i) => bytes.writeUInt16BE(parseInt(group, 16), i * 2));
  return bytes;
}
