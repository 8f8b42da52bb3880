/**
 * The operator CLI's grammar: commands are entries in a table (see commands.ts), each declaring
 * its words, flags and positionals; this module parses argv against that table and renders
 * usage text. It imports nothing that reads configuration, so `--help` and usage errors work
 * without a stack.
 */
import type { Target } from './target';

export const PROGRAM = 'npm run ops --';

export interface FlagSpec {
  /** Placeholder in usage text, e.g. `ID`. */
  value: string;
  help: string;
  required?: boolean;
  /** Comma-separated; may also be repeated. Absent means []. */
  list?: boolean;
  choices?: readonly string[];
  default?: string;
}

export interface PositionalSpec {
  name: string;
  help: string;
  optional?: boolean;
}

type FlagValue<F extends FlagSpec> = F extends { list: true }
  ? string[]
  : F extends { required: true } | { default: string }
    ? string
    : string | undefined;

type PositionalValues<P extends readonly PositionalSpec[]> = {
  [S in P[number] as S['name']]: S extends { optional: true } ? string | undefined : string;
};

export interface CommandInput<F extends Record<string, FlagSpec>, P extends readonly PositionalSpec[]> {
  flags: { [K in keyof F]: FlagValue<F[K]> };
  args: PositionalValues<P>;
  target: Target;
}

export interface CommandSpec<F extends Record<string, FlagSpec>, P extends readonly PositionalSpec[], R extends object> {
  /** The command's words, e.g. `keys create`. */
  name: string;
  summary: string;
  flags: F;
  positionals?: P;
  /** Runs with configuration applied; may import shared/domain and shared/store dynamically. */
  run(input: CommandInput<F, P>): Promise<R>;
  /** The human-readable form of the result (the --json form is the result itself). */
  render(result: R): string;
}

/** A table entry with its types erased. */
export interface Command {
  name: string;
  words: string[];
  summary: string;
  flags: Record<string, FlagSpec>;
  positionals: readonly PositionalSpec[];
  run(input: { flags: Record<string, string | string[] | undefined>; args: Record<string, string | undefined>; target: Target }): Promise<object>;
  render(result: object): string;
}

export function defineCommand<
  const F extends Record<string, FlagSpec>,
  const P extends readonly PositionalSpec[] = [],
  R extends object = object,
>(spec: CommandSpec<F, P, R>): Command {
  return {
    name: spec.name,
    words: spec.name.split(' '),
    summary: spec.summary,
    flags: spec.flags,
    positionals: spec.positionals ?? [],
    run: spec.run as Command['run'],
    render: spec.render as Command['render'],
  };
}

export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface GlobalOptions {
  json: boolean;
  stage?: string;
}

export type Invocation =
  | { kind: 'help'; text: string }
  | {
      kind: 'run';
      command: Command;
      global: GlobalOptions;
      flags: Record<string, string | string[] | undefined>;
      args: Record<string, string | undefined>;
    };

const GLOBAL_FLAGS: readonly { usage: string; help: string }[] = [
  { usage: '--json', help: 'Print exactly one JSON object on stdout' },
  { usage: '--stage NAME', help: 'Work on the deployed stack HotelIntegration-NAME (your AWS credentials)' },
  { usage: '-h, --help', help: 'Show help' },
];

const STAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

function columns(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

export function programUsage(commands: readonly Command[], prefix: string[] = []): string {
  const shown = commands.filter((c) => prefix.every((word, i) => c.words[i] === word));
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Operates the service: by default the local stack `npm start` runs (found through',
    '${LOCAL_DATA_DIR:-.local}/stack.json, or $OPS_STACK_FILE); with --stage NAME the deployed stack.',
    '',
    'Commands:',
    columns(shown.map((c) => [c.name, c.summary])),
    '',
    'Global options:',
    columns(GLOBAL_FLAGS.map((g) => [g.usage, g.help])),
    '',
    `Run \`${PROGRAM} <command> --help\` for a command's options.`,
  ].join('\n');
}

function flagUsage(name: string, flag: FlagSpec): string {
  const value = flag.choices ? flag.choices.join('|') : flag.value;
  return `--${name} ${value}`;
}

export function commandUsage(command: Command): string {
  const synopsis = [
    ...Object.entries(command.flags).map(([name, flag]) => (flag.required ? flagUsage(name, flag) : `[${flagUsage(name, flag)}]`)),
    ...command.positionals.map((p) => (p.optional ? `[${p.name}]` : p.name)),
    '[--json] [--stage NAME]',
  ];
  const rows: [string, string][] = [
    ...command.positionals.map((p): [string, string] => [p.name, p.help]),
    ...Object.entries(command.flags).map(([name, flag]): [string, string] => [
      flagUsage(name, flag),
      flag.help + (flag.default ? ` (default ${flag.default})` : ''),
    ]),
    ...GLOBAL_FLAGS.map((g): [string, string] => [g.usage, g.help]),
  ];
  return [`Usage: ${PROGRAM} ${command.name} ${synopsis.join(' ')}`, '', command.summary, '', 'Options:', columns(rows)].join('\n');
}

/** The longest run of leading words (ignoring flags) that names a command or a group of them. */
function resolveWords(commands: readonly Command[], words: string[]): { prefix: string[]; command?: Command } {
  const prefix: string[] = [];
  for (const word of words) {
    const next = [...prefix, word];
    if (!commands.some((c) => next.every((w, i) => c.words[i] === w))) break;
    prefix.push(word);
    const command = commands.find((c) => c.words.length === prefix.length && c.words.every((w, i) => w === prefix[i]));
    if (command) return { prefix, command };
  }
  return { prefix };
}

export function parseInvocation(commands: readonly Command[], argv: readonly string[]): Invocation {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  if (argv.length === 0 || options.includes('--help') || options.includes('-h')) {
    // Best effort: the words that are neither options nor --stage's value.
    const words = options.filter((t, i) => !t.startsWith('-') && options[i - 1] !== '--stage');
    const { prefix, command } = resolveWords(commands, words);
    return { kind: 'help', text: command ? commandUsage(command) : programUsage(commands, prefix) };
  }

  const global: GlobalOptions = { json: false };
  const flags: Record<string, string | string[] | undefined> = {};
  const positionals: string[] = [];
  const words: string[] = [];
  let command: Command | undefined;
  const usage = () => (command ? commandUsage(command) : programUsage(commands, words));
  const fail = (message: string): never => {
    throw new UsageError(message, usage());
  };

  let i = 0;
  const valueOf = (name: string, inline: string | undefined): string => {
    if (inline !== undefined) return inline;
    const next = argv[i + 1];
    if (next === undefined || (next.startsWith('--') && next.length > 2)) fail(`--${name} needs a value`);
    i += 1;
    return next!;
  };

  let afterTerminator = false;
  for (; i < argv.length; i += 1) {
    const token = argv[i]!;
    if (!afterTerminator && token === '--') {
      afterTerminator = true;
      continue;
    }
    if (!afterTerminator && token.startsWith('-') && token !== '-') {
      const match = /^--([^=]+)(?:=(.*))?$/s.exec(token);
      if (!match) fail(`unknown option ${token}`);
      const name = match![1]!;
      const inline = match![2];
      if (name === 'json') {
        if (inline !== undefined) fail('--json takes no value');
        global.json = true;
      } else if (name === 'stage') {
        if (global.stage !== undefined) fail('--stage given twice');
        global.stage = valueOf(name, inline);
        if (!STAGE_NAME.test(global.stage)) fail(`not a stage name: ${global.stage}`);
      } else if (!command) {
        fail(words.length ? `unknown command: ${words.join(' ')}` : `unknown option ${token} (give the command first)`);
      } else {
        const spec = command.flags[name];
        if (!spec) fail(`unknown option --${name}`);
        const value = valueOf(name, inline);
        if (spec!.list) {
          const items = value.split(',').map((item) => item.trim()).filter(Boolean);
          flags[name] = [...((flags[name] as string[] | undefined) ?? []), ...items];
        } else {
          if (flags[name] !== undefined) fail(`--${name} given twice`);
          if (spec!.choices && !spec!.choices.includes(value)) fail(`--${name} must be one of ${spec!.choices.join(', ')}`);
          flags[name] = value;
        }
      }
      continue;
    }
    if (command) {
      positionals.push(token);
      continue;
    }
    words.push(token);
    const resolved = resolveWords(commands, words);
    if (resolved.prefix.length < words.length) fail(`unknown command: ${words.join(' ')}`);
    command = resolved.command;
  }

  if (!command) fail(words.length ? `incomplete command: ${words.join(' ')}` : 'no command given');
  const resolved = command!;

  for (const [name, spec] of Object.entries(resolved.flags)) {
    if (spec.list) flags[name] ??= [];
    else if (flags[name] === undefined && spec.default !== undefined) flags[name] = spec.default;
    if (spec.required && (flags[name] === undefined || flags[name] === '' || (spec.list && !flags[name]!.length))) {
      fail(`missing required option --${name}`);
    }
  }
  const args: Record<string, string | undefined> = {};
  resolved.positionals.forEach((spec, index) => {
    const value = positionals[index];
    if (value === undefined && !spec.optional) fail(`missing ${spec.name}`);
    args[spec.name] = value;
  });
  if (positionals.length > resolved.positionals.length) {
    fail(`unexpected argument: ${positionals[resolved.positionals.length]}`);
  }
  return { kind: 'run', command: resolved, global, flags, args };
}
