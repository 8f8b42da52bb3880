/**
 * The local stack's ports: a free one for a test, and a check, before anything starts, that a
 * port the stack was told to use is free (PortInUseError names the variable that sets it).
 */
import { createServer } from 'node:net';

/**
 * Where freePort looks: below Linux's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999
 * by default), from which the kernel takes the local port of every outgoing connection. A port
 * found free in that range (listen(0) picks from it) can be taken by any connection on the
 * machine before the emulator that was given it binds it: a CI run met exactly that
 * ("COGNITO_PORT 41181 is already in use").
 */
const FIRST_PORT = 20_000;
const PORTS = 32_768 - FIRST_PORT;
/** Each process walks the range from its own place (by pid), so parallel test workers rarely meet. */
let nextPort = -1;

/**
 * A port free now, for a server started a moment later (an emulator, a local stack's child): the
 * next one in FIRST_PORT..32767 that can be bound both on loopback and on every interface.
 */
export async function freePort(): Promise<number> {
  if (nextPort < 0) nextPort = (process.pid * 7_919) % PORTS;
  for (let tries = 0; tries < 500; tries++) {
    const port = FIRST_PORT + (nextPort++ % PORTS);
    if ((await canListen(port, '127.0.0.1').catch(() => false)) && (await canListen(port, '0.0.0.0').catch(() => false))) return port;
  }
  throw new Error(`no free port between ${FIRST_PORT} and ${FIRST_PORT + PORTS - 1} after 500 tries`);
}

/** A port the local stack was told to use is taken; the message names the variable that sets it. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';

  constructor(
    readonly variable: string,
    readonly port: number,
  ) {
    super(`${variable} ${port} is already in use (another local stack, or another program): set ${variable} to a free port, e.g. ${variable}=${port + 1} npm start`);
  }
}

/** Whether a server could listen on `port` at `host` now (a taken port answers EADDRINUSE). */
function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Fails with PortInUseError unless `port` (set by `variable`) is free, on loopback and on every
 * interface (DynamoDB Local and fauxqs listen on all). Probed before anything starts on it: an
 * emulator of another stack already there would otherwise answer our health checks as if it were
 * ours. Port 0 (any free port) needs no probe.
 */
export async function ensurePortFree(variable: string, port: number): Promise<void> {
  if (port === 0) return;
  for (const host of ['127.0.0.1', '0.0.0.0']) {
    let free: boolean;
    try {
      free = await canListen(port, host);
    } catch (error) {
      throw new Error(`${variable} ${port} cannot be used: ${(error as Error).message}`);
    }
    if (!free) throw new PortInUseError(variable, port);
  }
}

/** ensurePortFree for each [variable, port]. */
export async function ensurePortsFree(ports: readonly (readonly [variable: string, port: number])[]): Promise<void> {
  for (const [variable, port] of ports) await ensurePortFree(variable, port);
}
