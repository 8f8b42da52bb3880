/**
 * Where a scenario's CPU went, read from /proc (Linux): the whole machine's busy time
 * (/proc/stat), this process's (the local stack's functions, its gateway and poller, the bench's
 * receiver) and each emulator's (/proc/PID/stat). A drain on this machine keeps both cores
 * nearly busy, so its rate is bounded by the CPU one delivery costs: these figures say how much,
 * and by whom. Undefined where /proc is not there.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { round } from './stats';
import type { Row } from './types';

/** Clock ticks per second of /proc's counters (USER_HZ, 100 on Linux as built). */
const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return 10;
  }
})();

export interface CpuSnapshot {
  at: number;
  /** Busy ms of the whole machine (user, nice, system, irq and softirq). */
  machine: number;
  /** Busy ms of this process (user and system). */
  self: number;
  /** Busy ms of each named process. */
  processes: Record<string, number>;
}

function machineBusyMs(): number {
  // cpu user nice system idle iowait irq softirq steal guest guest_nice: idle and iowait are not
  // busy, steal is another guest's, and guest time is counted in user time already.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq) * TICK_MS;
}

function processBusyMs(pid: number): number {
  // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them.
  const rest = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
  return (Number(rest[11]) + Number(rest[12])) * TICK_MS;
}

export function cpuSnapshot(pids: Record<string, number | undefined>): CpuSnapshot | undefined {
  try {
    const usage = process.cpuUsage();
    const processes: Record<string, number> = {};
    for (const [name, pid] of Object.entries(pids)) if (pid) processes[name] = processBusyMs(pid);
    return { at: performance.now(), machine: machineBusyMs(), self: (usage.user + usage.system) / 1000, processes };
  } catch {
    return undefined;
  }
}

export interface CpuUse {
  /** Cores busy on average over the interval, of `cores`. */
  busyCores: number;
  cores: number;
  /** CPU ms per unit of work: all of it, this process's, each named process's, and the rest. */
  perUnitMs: { all: number; self: number; other: number } & Record<string, number>;
  /** Units per second if every core were busy at this cost. */
  ceilingPerSecond: number;
}

export function cpuUse(before: CpuSnapshot | undefined, after: CpuSnapshot | undefined, units: number): CpuUse | undefined {
  if (!before || !after || units <= 0) return undefined;
  const cores = cpus().length;
  const all = after.machine - before.machine;
  const self = after.self - before.self;
  const named = Object.fromEntries(Object.keys(after.processes).map((name) => [name, after.processes[name]! - (before.processes[name] ?? 0)]));
  const other = all - self - Object.values(named).reduce((a, b) => a + b, 0);
  const per = (ms: number) => round(ms / units, 2);
  return {
    busyCores: round(all / (after.at - before.at), 2),
    cores,
    perUnitMs: { all: per(all), self: per(self), other: per(Math.max(0, other)), ...Object.fromEntries(Object.entries(named).map(([n, ms]) => [n, per(ms)])) },
    ceilingPerSecond: round((cores * 1000 * units) / all, 0),
  };
}

/** The row's words: "1.8 of 2 cores busy; 14.2 ms a delivery (DynamoDB Local 7.9, …); at most 141/s". */
export function describeCpuUse(use: CpuUse, unit: string, names: Record<string, string>): string {
  const parts = [
    ...Object.entries(names).map(([key, label]) => `${label} ${use.perUnitMs[key] ?? 0}`),
    `this process (functions, gateway, poller, receiver) ${use.perUnitMs.self}`,
    `other ${use.perUnitMs.other}`,
  ];
  return `${use.busyCores} of ${use.cores} cores busy; ${use.perUnitMs.all} ms of CPU a ${unit} (${parts.join(', ')}); with every core busy at that cost, at most ${use.ceilingPerSecond}/s`;
}

/** The bench's row of a drain's CPU, per delivery, with the emulators named; none without /proc. */
export function cpuRows(figure: string, use: CpuUse | undefined): Row[] {
  return use ? [{ figure, value: describeCpuUse(use, 'delivery', { dynamodb: 'DynamoDB Local', sqs: 'SQS emulator' }) }] : [];
}
