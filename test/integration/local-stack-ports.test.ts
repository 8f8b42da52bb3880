/**
 * `npm start`'s ports and children (docs/behaviour.md "Local stack and operator CLI"): a port already
 * taken, even by another stack's emulator that answers health checks, stops the start with a
 * message naming its variable, before anything starts; and a start that fails once its children
 * are up stops every one of them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePortFree, PortInUseError } from '../../infra/local/ports';
import { freeStackPorts, killAllStackProcesses, portsClosed, type StackPorts, startStackProcess } from '../support/local-stack-process';

const dataDirs: string[] = [];
const servers: Server[] = [];

afterAll(async () => {
  killAllStackProcesses();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'local-stack-ports-'));
  dataDirs.push(dir);
  return dir;
}

/** What another stack's cognito-local looks like from here: something on the port that answers its health check. */
async function impostorCognito(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/health' ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end('{"ok":true}');
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

/** The stack's start, to its exit: its exit code and everything it printed. */
async function failedStart(ports: StackPorts, dataDir: string): Promise<{ code: number | undefined; output: string }> {
  const error = await startStackProcess(ports, dataDir).then(
    () => new Error('the stack started'),
    (e: Error) => e,
  );
  const match = /^exited with (\d+|null):\n([^]*)$/.exec(error.message);
  if (!match) throw error;
  return { code: match[1] === 'null' ? undefined : Number(match[1]), output: match[2]! };
}

/** Processes whose command line names the data folder (DynamoDB Local's `-dbPath` does). */
function processesOf(dataDir: string): string[] {
  if (process.platform === 'win32') return [];
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dataDir) && !line.includes('ps -eo'));
}

/** Every port but the given one: nothing listens on any of them. */
const allBut = (ports: StackPorts, taken: keyof StackPorts) => Object.fromEntries(Object.entries(ports).filter(([name]) => name !== taken)) as unknown as StackPorts;

describe('the local stack\'s ports', () => {
  it('probes a port by its variable: free passes, taken (loopback or any interface) names the variable', async () => {
    const ports = await freeStackPorts();
    await expect(ensurePortFree('SANDBOX_PORT', ports.sandbox)).resolves.toBeUndefined();
    await expect(ensurePortFree('PORT', 0)).resolves.toBeUndefined();
    await impostorCognito(ports.cognito);
    const refused = await ensurePortFree('COGNITO_PORT', ports.cognito).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PortInUseError);
    expect(refused).toMatchObject({ variable: 'COGNITO_PORT', port: ports.cognito });
    expect((refused as Error).message).toBe(
      `COGNITO_PORT ${ports.cognito} is already in use (another local stack, or another program): set COGNITO_PORT to a free port, e.g. COGNITO_PORT=${ports.cognito + 1} npm start`,
    );
    // Something on every interface (as DynamoDB Local and fauxqs listen) takes the loopback port too.
    const everywhere = createServer();
    servers.push(everywhere);
    await new Promise<void>((resolve) => everywhere.listen(ports.dynamodb, '0.0.0.0', resolve));
    await expect(ensurePortFree('DYNAMODB_PORT', ports.dynamodb)).rejects.toMatchObject({ name: 'PortInUseError', variable: 'DYNAMODB_PORT' });
  });

  it('a taken COGNITO_PORT, held by something that answers like cognito-local, stops `npm start` naming the variable, and leaves no child running', async () => {
    const ports = await freeStackPorts();
    await impostorCognito(ports.cognito);
    const dataDir = newDataDir();
    const { code, output } = await failedStart(ports, dataDir);
    expect(code).toBe(1);
    expect(output).toContain(`COGNITO_PORT ${ports.cognito} is already in use`);
    expect(output).toContain(`set COGNITO_PORT to a free port, e.g. COGNITO_PORT=${ports.cognito + 1} npm start`);
    // It never used the other stack's cognito: no demo client, no operator, no `ready:`.
    expect(output).not.toMatch(/demo client|sign in as|ready:/);
    // Nothing it was given is listened on, and none of its children survives.
    await portsClosed(allBut(ports, 'cognito'), 5_000);
    expect(processesOf(dataDir)).toEqual([]);
  }, 60_000);

  it('a start that fails once its emulators are up (an unreadable demo.json) stops every child it started', async () => {
    const ports = await freeStackPorts();
    const dataDir = newDataDir();
    writeFileSync(join(dataDir, 'demo.json'), '{"client_id": ');
    const { code, output } = await failedStart(ports, dataDir);
    expect(code).toBe(1);
    expect(output).toContain('local stack failed to start');
    expect(output).not.toContain('ready:');
    // The emulators had started (DynamoDB Local wrote its folder); none is left running.
    await portsClosed(ports, 5_000);
    expect(processesOf(dataDir)).toEqual([]);
  }, 90_000);
});
