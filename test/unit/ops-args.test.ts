/** The operator CLI's argument parsing against its real command table (no stack needed). */
import { describe, expect, it } from 'vitest';
import { parseInvocation, UsageError } from '../../shared/ops/cli';
import { commands } from '../../shared/ops/commands';

const parse = (...argv: string[]) => parseInvocation(commands, argv);

function usageError(argv: string[]): UsageError {
  try {
    parse(...argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

function run(...argv: string[]) {
  const invocation = parse(...argv);
  if (invocation.kind !== 'run') throw new Error('expected a command');
  return invocation;
}

describe('parseInvocation', () => {
  it('resolves a command with its flags, defaults and lists', () => {
    const invocation = run('keys', 'create', '--client', 'c1', '--kind=payment', '--origins', 'https://a.example,https://b.example', '--origins', 'https://c.example');
    expect(invocation.command.name).toBe('keys create');
    expect(invocation.flags).toEqual({
      client: 'c1',
      kind: 'payment',
      scopes: [],
      origins: ['https://a.example', 'https://b.example', 'https://c.example'],
    });
    expect(invocation.global).toEqual({ json: false });
    expect(run('clients', 'create', '--name', 'Hotel').flags).toEqual({ name: 'Hotel', plan: 'standard', currency: 'USD', 'time-zone': 'UTC' });
  });

  it('takes global options anywhere and positionals after the command', () => {
    const invocation = run('--stage', 'prod', 'keys', 'revoke', '--json', 'k1');
    expect(invocation.global).toEqual({ json: true, stage: 'prod' });
    expect(invocation.args).toEqual({ KEY_ID: 'k1' });
    expect(run('keys', 'revoke', '--', '--odd-id').args).toEqual({ KEY_ID: '--odd-id' });
  });

  it('prints help for no command, --help, a group or a command', () => {
    expect(parse()).toMatchObject({ kind: 'help', text: expect.stringContaining('keys revoke KEY_ID') });
    expect(parse('--help')).toMatchObject({ kind: 'help', text: expect.stringContaining('clients create') });
    const group = parse('keys', '-h');
    expect(group.kind === 'help' && group.text).not.toContain('clients create');
    expect(parse('keys', 'create', '--help')).toMatchObject({ kind: 'help', text: expect.stringContaining('--kind <sync|payment>') });
  });

  it('takes a switch flag without a value, absent when not given', () => {
    const withCsv = parse('reports', 'occupancy', '--client', 'a', '--csv');
    const without = parse('reports', 'occupancy', '--client', 'a');
    if (withCsv.kind !== 'run' || without.kind !== 'run') throw new Error('expected a run');
    expect(withCsv.flags.csv).toBe('true');
    expect(without.flags.csv).toBeUndefined();
  });

  it("prints each command's own help, with the global options", () => {
    for (const command of commands) {
      const help = parse(...command.words, '--help');
      if (help.kind !== 'help') throw new Error('expected help');
      expect(help.text).toMatch(new RegExp(`^Usage: npm run ops -- ${command.name} `));
      expect(help.text).toContain(command.summary.slice(0, 30));
      for (const [flag, spec] of Object.entries(command.flags)) expect(help.text).toMatch(spec.switch ? new RegExp(`--${flag} +\\S`) : new RegExp(`--${flag} <`));
      expect(help.text).toContain('--json');
      expect(help.text).toContain('--stage <NAME>');
    }
    const roomsCreate = parse('rooms', 'create', '--help');
    expect(roomsCreate.kind === 'help' && roomsCreate.text).toContain('--room-number <N>');
  });

  it('lists every command when the command is unknown', () => {
    const error = usageError(['burn']);
    for (const command of commands) expect(error.usage).toContain(command.name);
  });

  it.each([
    [['keys'], 'incomplete command: keys'],
    [['keys', 'burn'], "unknown command 'burn'"],
    [['--client', 'x'], "unknown option '--client'"],
    [['keys', 'list'], "required option '--client <ID>' not specified"],
    [['keys', 'list', '--client'], "option '--client <ID>' argument missing"],
    [['keys', 'list', '--client', '--json'], "option '--client <ID>' argument missing"],
    [['keys', 'list', '--client', '--x'], '--client needs a value'],
    [['keys', 'list', '--client', ''], '--client needs a value'],
    [['keys', 'list', '--client', 'a', '--client', 'b'], '--client given twice'],
    [['keys', 'list', '--client', 'a', '--clinet', 'b'], "unknown option '--clinet' (Did you mean --client?)"],
    [['keys', 'list', '--client', 'a', '-c'], "unknown option '-c'"],
    [['keys', 'list', '--client', 'a', 'extra'], "too many arguments for 'list'. Expected 0 arguments but got 1."],
    [['keys', 'create', '--client', 'a', '--kind', 'admin'], '--kind must be one of sync, payment'],
    [['keys', 'revoke'], "missing required argument 'KEY_ID'"],
    [['keys', 'revoke', 'k', '--json=yes'], "unknown option '--json=yes'"],
    [['keys', 'revoke', 'k', '--stage', 'a/b'], 'not a stage name: a/b'],
    [['--stage', 'a', 'keys', 'revoke', 'k', '--stage', 'b'], '--stage given twice'],
    [['bookings', 'list', '--client', 'a', '--origin', 'walk-in'], '--origin must be one of sync, reception, payment'],
  ])('%j is a usage error: %s', (argv, message) => {
    const error = usageError(argv);
    expect(error.message).toBe(message);
    expect(error.usage).toMatch(/^Usage: npm run ops -- /);
  });

  it('names the command concerned in the usage of an error', () => {
    expect(usageError(['keys', 'list', '--client', 'a', '-c']).usage).toMatch(/^Usage: npm run ops -- keys list /);
    expect(usageError(['keys', 'burn']).usage).toMatch(/^Usage: npm run ops -- keys /);
  });
});
