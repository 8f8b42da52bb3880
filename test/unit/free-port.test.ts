/**
 * freePort (infra/local/ports.ts): the ports tests and emulators are given lie below Linux's
 * ephemeral range, which outgoing connections take their local ports from, and a taken one is
 * skipped.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/ports';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

function listen(port: number, host = '0.0.0.0'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host }, () => {
      servers.push(server);
      resolve(server);
    });
  });
}

describe('freePort', () => {
  it('gives ports below the ephemeral range that a server can bind at once, a different one each time', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const ports = [await freePort(), await freePort(), await freePort()];
    expect(new Set(ports).size).toBe(3);
    for (const port of ports) {
      expect(port).toBeLessThan(low!);
      await listen(port);
    }
  });

  it('skips a port another server holds, on loopback or on every interface', async () => {
    const first = await freePort();
    // Held by our servers (or already by another program, which holds them just as well).
    const held = (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
    };
    await listen(first + 1, '127.0.0.1').catch(held);
    await listen(first + 2, '0.0.0.0').catch(held);
    const next = await freePort();
    expect([first + 1, first + 2]).not.toContain(next);
    await listen(next);
  });
});
