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
    expect(run('clients', 'create', '--name', 'Hotel').flags).toEqual({ name: 'Hotel', currency: 'USD' });
  });

  it('takes global options anywhere and positionals after the command', () => {
    const invocation = run('--stage', 'prod', 'keys', 'revoke', '--json', 'k1');
    expect(invocation.global).toEqual({ json: true, stage: 'prod' });
    expect(invocation.args).toEqual({ KEY_ID: 'k1' });
    expect(run('keys', 'revoke', '--', '--odd-id').args).toEqual({ KEY_ID: '--odd-id' });
  });

  it('prints help for no command, --help, a group or a command', () => {
    expect(parse()).toMatchObject({ kind: 'help', text: expect.stringContaining('keys revoke') });
    expect(parse('--help')).toMatchObject({ kind: 'help', text: expect.stringContaining('clients create') });
    const group = parse('keys', '-h');
    expect(group.kind === 'help' && group.text).not.toContain('clients create');
    expect(parse('keys', 'create', '--help')).toMatchObject({ kind: 'help', text: expect.stringContaining('--kind sync|payment') });
  });

  it.each([
    [['keys'], 'incomplete command: keys'],
    [['keys', 'burn'], 'unknown command: keys burn'],
    [['--client', 'x'], 'unknown option --client (give the command first)'],
    [['keys', 'list'], 'missing required option --client'],
    [['keys', 'list', '--client'], '--client needs a value'],
    [['keys', 'list', '--client', '--json'], '--client needs a value'],
    [['keys', 'list', '--client', ''], 'missing required option --client'],
    [['keys', 'list', '--client', 'a', '--client', 'b'], '--client given twice'],
    [['keys', 'list', '--client', 'a', '--clinet', 'b'], 'unknown option --clinet'],
    [['keys', 'list', '--client', 'a', '-c'], 'unknown option -c'],
    [['keys', 'list', '--client', 'a', 'extra'], 'unexpected argument: extra'],
    [['keys', 'create', '--client', 'a', '--kind', 'admin'], '--kind must be one of sync, payment'],
    [['keys', 'revoke'], 'missing KEY_ID'],
    [['keys', 'revoke', 'k', '--json=yes'], '--json takes no value'],
    [['keys', 'revoke', 'k', '--stage', 'a/b'], 'not a stage name: a/b'],
  ])('%j is a usage error: %s', (argv, message) => {
    const error = usageError(argv);
    expect(error.message).toBe(message);
    expect(error.usage).toMatch(/^Usage: npm run ops -- /);
  });
});
