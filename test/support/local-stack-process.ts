/**
 * `npm start` as a user runs it, for the tests: bin/local.ts as a child process on its own ports
 * and LOCAL_DATA_DIR, leading its own process group (the emulators are in it), so a test can
 * send the group what a terminal sends (Ctrl-C) or kill it whole.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '../../infra/local/ports';

export interface StackPorts {
  api: number;
  dynamodb: number;
  sqs: number;
  cognito: number;
  ses: number;
  /** The sandbox checkout's own origin. */
  sandbox: number;
}

export interface StackProcess {
  child: ChildProcess;
  output: () => string;
  url: string;
  /** When it printed `ready:` (epoch ms). */
  readyAt: number;
}

export async function freeStackPorts(): Promise<StackPorts> {
  return { api: await freePort(), dynamodb: await freePort(), sqs: await freePort(), cognito: await freePort(), ses: await freePort(), sandbox: await freePort() };
}

const running = new Set<ChildProcess>();

/**
 * Starts `npm start` on these ports and data folder; resolves once it prints `ready:`. `script`
 * runs another entry point the same way (test/support/service-process.ts: the service alone).
 */
export async function startStackProcess(ports: StackPorts, dataDir: string, env: Record<string, string> = {}, script = 'bin/local.ts', args: readonly string[] = []): Promise<StackProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: {
      ...process.env,
      PORT: String(ports.api),
      DYNAMODB_PORT: String(ports.dynamodb),
      SQS_PORT: String(ports.sqs),
      COGNITO_PORT: String(ports.cognito),
      SES_PORT: String(ports.ses),
      SANDBOX_PORT: String(ports.sandbox),
      LOCAL_DATA_DIR: dataDir,
      // These stacks live seconds: DynamoDB Local without its optimizing compiler starts on half
      // the CPU (infra/local/emulators.ts), and the tests start a dozen of them beside the others.
      DYNAMODB_LOCAL_JAVA_OPTS: '-Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1',
      // The tests' stacks start with an empty hotel unless a test asks for the demo one (DEMO_HOTEL: '').
      DEMO_HOTEL: 'empty',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    // Alone it is ready in a few seconds; beside two other test files on two cores, a start was
    // seen to take over 30 s.
    const timer = setTimeout(() => reject(new Error(`not ready in 90 s:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      const match = /ready: (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { child, output: () => output, url, readyAt: Date.now() };
}

/** Its exit code once it exits (null when a signal ended it). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Sends `signal` to the process alone (as `kill PID` does); resolves with its exit code. */
export function stopStackProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  const exit = exited(child);
  child.kill(signal);
  return exit;
}

/** Sends `signal` to its whole process group, the emulators with it (a terminal's Ctrl-C, or SIGKILL to everything). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  process.kill(-child.pid!, signal);
}

/** SIGKILL to every group still running: for afterAll, whatever a test left. */
export function killAllStackProcesses(): void {
  for (const child of running) {
    try {
      signalGroup(child, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once nothing listens on any of the ports (a SIGKILLed group's sockets close at once). */
export async function portsClosed(ports: Partial<StackPorts>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await Promise.all(Object.values(ports).map(portOpen));
    if (!open.some(Boolean)) return;
    if (Date.now() > deadline) throw new Error(`ports still open after ${timeoutMs} ms: ${JSON.stringify(ports)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
