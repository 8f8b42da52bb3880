/** The bench's CPU figures (test/bench/lib/cpu.ts): what a drain's CPU cost per delivery and ceiling say. */
import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cpuSnapshot, cpuUse, describeCpuUse } from '../bench/lib/cpu';

describe('bench CPU figures', () => {
  it('split the machine CPU of an interval by process, per unit of work, and give the ceiling of every core at that cost', () => {
    const cores = cpus().length;
    const before = { at: 0, machine: 1_000, self: 100, processes: { dynamodb: 50, sqs: 5 } };
    // 10 s in which the machine was busy 15 s of CPU: DynamoDB Local 7 s, this process 6 s, the SQS emulator 0.5 s.
    const after = { at: 10_000, machine: 16_000, self: 6_100, processes: { dynamodb: 7_050, sqs: 505 } };
    const use = cpuUse(before, after, 1_000)!;
    expect(use.busyCores).toBe(1.5);
    expect(use.perUnitMs).toEqual({ all: 15, self: 6, dynamodb: 7, sqs: 0.5, other: 1.5 });
    expect(use.ceilingPerSecond).toBe(Math.round((cores * 1000) / 15));
    expect(describeCpuUse(use, 'delivery', { dynamodb: 'DynamoDB Local', sqs: 'SQS emulator' })).toBe(
      `1.5 of ${cores} cores busy; 15 ms of CPU a delivery (DynamoDB Local 7, SQS emulator 0.5, this process (functions, gateway, poller, receiver) 6, other 1.5); ` +
        `with every core busy at that cost, at most ${use.ceilingPerSecond}/s`,
    );
  });

  it('reads this machine: a busy loop shows in this process and the machine', () => {
    const before = cpuSnapshot({ self: process.pid });
    if (!before) return; // no /proc (not Linux)
    // 200 ms of this process's own CPU, not of the clock: on a loaded machine (the suite's other
    // workers) a wall-clock loop may get half a core.
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user + process.cpuUsage(start).system < 200_000);
    const use = cpuUse(before, cpuSnapshot({ self: process.pid }), 1)!;
    expect(use.perUnitMs.self).toBeGreaterThan(100);
    expect(use.perUnitMs.all).toBeGreaterThan(100);
  });

  it('gives nothing without both readings or without work', () => {
    const snapshot = { at: 0, machine: 0, self: 0, processes: {} };
    expect(cpuUse(undefined, snapshot, 10)).toBeUndefined();
    expect(cpuUse(snapshot, snapshot, 0)).toBeUndefined();
  });
});
