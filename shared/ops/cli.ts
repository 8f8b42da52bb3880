/**
 * The operator CLI's grammar. Commands are entries in a table (commands.ts), each declaring its
 * words, flags and positionals; this module turns the table into a commander program, which
 * parses argv and renders each command's help. It imports nothing that reads configuration, so
 * `--help` and usage errors work without a stack.
 */
import { Command as Program, CommanderError, Help, Option } from 'commander';
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
  /** A flag that takes no value (`--csv`): 'true' when given, else absent. */
  switch?: boolean;
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

type FlagValues = Record<string, string | string[] | undefined>;
type ArgValues = Record<string, string | undefined>;

/** A table entry with its types erased. */
export interface Command {
  name: string;
  words: string[];
  summary: string;
  flags: Record<string, FlagSpec>;
  positionals: readonly PositionalSpec[];
  run(input: { flags: FlagValues; args: ArgValues; target: Target }): Promise<object>;
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

/**
 * Exit 2. `usage` is the help of the command (or group) concerned; a command's run() may leave
 * it out for a combination of flags only it can judge, and the caller shows the command's help.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
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
      flags: FlagValues;
      args: ArgValues;
      /** The command's help, for usage errors its run() raises. */
      usage: string;
    };

const STAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** A few choices stand in the placeholder (`--kind <sync|payment>`); more are listed in the help. */
const choicesInPlaceholder = (flag: FlagSpec) => flag.choices !== undefined && flag.choices.join('|').length <= 24;

const flagPlaceholder = (flag: FlagSpec) => (choicesInPlaceholder(flag) ? flag.choices!.join('|') : flag.value);

function flagHelp(flag: FlagSpec): string {
  const notes = [
    flag.choices && !choicesInPlaceholder(flag) ? `one of ${flag.choices.join(', ')}` : '',
    flag.required ? 'required' : '',
    flag.default !== undefined ? `default ${flag.default}` : '',
  ].filter(Boolean);
  return notes.length ? `${flag.help} (${notes.join('; ')})` : flag.help;
}

/** Not empty, and not the next option: `--client --json` lacks the client. */
const isValue = (value: string) => value !== '' && !(value.startsWith('--') && value.length > 2);

/** The full words of a command, e.g. `keys create` (the program itself has none). */
function wordsOf(cmd: Program): string[] {
  const words: string[] = [];
  for (let c: Program | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words;
}

/** What the program does instead of exiting: carry commander's outcome, with the command it concerns. */
class ParseExit extends Error {
  constructor(
    readonly outcome: CommanderError,
    readonly command: Program,
  ) {
    super(outcome.message);
  }
}

const commanderMessage = (error: CommanderError) => error.message.replace(/^error: /, '').replace(/\n/g, ' ');

/**
 * Parses argv against the command table. Returns the command to run with its flags, defaults
 * applied, or the help asked for; throws UsageError for anything else. Never exits, never prints.
 */
export function parseInvocation(commands: readonly Command[], argv: readonly string[]): Invocation {
  let help = '';
  let chosen: { command: Command; usage: string; args: ArgValues } | undefined;
  const flags: FlagValues = {};
  const global: GlobalOptions = { json: false };
  const leaves: Program[] = [];

  const program = new Program(PROGRAM)
    .description(
      'Operates the service: by default the local stack `npm start` runs (found through\n' +
        '${LOCAL_DATA_DIR:-.local}/stack.json, or $OPS_STACK_FILE); with --stage NAME the deployed stack.',
    )
    .usage('<command> [options]')
    .helpCommand(false)
    .configureOutput({ writeOut: (text) => (help += text), writeErr: (text) => (help += text), outputError: () => {} })
    .addHelpText('after', `\nRun \`${PROGRAM} <command> --help\` for a command's options.`);
  // Every help shows the global options and names commands by their full words; the program's
  // help lists every command rather than the groups (`keys`, `rooms`...) they belong to.
  program.configureHelp({
    showGlobalOptions: true,
    visibleCommands(this: Help, cmd: Program) {
      return cmd.parent ? Help.prototype.visibleCommands.call(this, cmd) : [...leaves];
    },
    subcommandTerm: (cmd: Program) =>
      [...wordsOf(cmd), ...cmd.registeredArguments.map((a) => (a.required ? a.name() : `[${a.name()}]`))].join(' '),
  });

  /** A single value: given once, and a value (commander reports a flag at the end of argv). */
  const single = (owner: Program, name: string, store: (value: string) => void, check?: (value: string) => string | undefined) => {
    let given = false;
    return (value: string) => {
      if (given) throw new UsageError(`--${name} given twice`, owner.helpInformation());
      given = true;
      if (!isValue(value)) throw new UsageError(`--${name} needs a value`, owner.helpInformation());
      const problem = check?.(value);
      if (problem) throw new UsageError(problem, owner.helpInformation());
      store(value);
      return value;
    };
  };

  // Global options: recognized before and after the command's words.
  program
    .addOption(new Option('--json', 'Print exactly one JSON object on stdout (also on failure)'))
    .addOption(
      new Option('--stage <NAME>', 'Work on the deployed stack HotelIntegration-NAME (your AWS credentials)').argParser(
        single(program, 'stage', (value) => (global.stage = value), (value) => (STAGE_NAME.test(value) ? undefined : `not a stage name: ${value}`)),
      ),
    );

  const groups = new Map<string, Program>([['', program]]);
  const groupOf = (words: string[]): Program => {
    const key = words.join(' ');
    let group = groups.get(key);
    if (!group) {
      group = groupOf(words.slice(0, -1)).command(words.at(-1)!).usage('<command> [options]').helpCommand(false);
      groups.set(key, group);
    }
    return group;
  };

  for (const spec of commands) {
    const leaf = groupOf(spec.words.slice(0, -1)).command(spec.words.at(-1)!).description(spec.summary);
    leaves.push(leaf);
    for (const positional of spec.positionals) {
      leaf.argument(positional.optional ? `[${positional.name}]` : `<${positional.name}>`, positional.help);
    }
    for (const [name, flag] of Object.entries(spec.flags)) {
      if (flag.switch) {
        leaf.addOption(new Option(`--${name}`, flag.help).preset('true').argParser(() => (flags[name] = 'true')));
        continue;
      }
      const option = new Option(`--${name} <${flagPlaceholder(flag)}>`, flagHelp(flag));
      if (flag.required) option.makeOptionMandatory();
      option.argParser<string | string[]>(
        flag.list
          ? (value: string) => {
              const items = value.split(',').map((item) => item.trim()).filter(Boolean);
              if (!isValue(value) || !items.length) throw new UsageError(`--${name} needs a value`, leaf.helpInformation());
              const list = [...((flags[name] as string[] | undefined) ?? []), ...items];
              flags[name] = list;
              return list;
            }
          : single(leaf, name, (value) => (flags[name] = value), (value) =>
              flag.choices && !flag.choices.includes(value) ? `--${name} must be one of ${flag.choices.join(', ')}` : undefined,
            ),
      );
      leaf.addOption(option);
    }
    leaf.action((...received: unknown[]) => {
      const values = received.slice(0, spec.positionals.length) as (string | undefined)[];
      const args: ArgValues = Object.fromEntries(spec.positionals.map((p, i) => [p.name, values[i]]));
      chosen = { command: spec, usage: leaf.helpInformation(), args };
    });
  }
  // Each command reports its own outcome, so an error carries the help of the command concerned.
  for (const cmd of [...groups.values(), ...leaves]) {
    cmd.exitOverride((error) => {
      throw new ParseExit(error, cmd);
    });
  }

  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof ParseExit)) throw error;
    const { outcome, command } = error;
    // -h/--help asked for, or no words at all: the help is the answer.
    if (outcome.code === 'commander.helpDisplayed' || (outcome.code === 'commander.help' && command === program && argv.length === 0)) {
      return { kind: 'help', text: help.trimEnd() };
    }
    // A group's words alone (`keys`): commander shows its help; here that is a usage error.
    if (outcome.code === 'commander.help') {
      const words = wordsOf(command);
      throw new UsageError(words.length ? `incomplete command: ${words.join(' ')}` : 'no command given', command.helpInformation());
    }
    throw new UsageError(commanderMessage(outcome), command.helpInformation());
  }
  global.json = program.opts().json === true;
  if (!chosen) throw new UsageError('no command given', program.helpInformation());

  const { command, usage, args } = chosen;
  for (const [name, spec] of Object.entries(command.flags)) {
    if (spec.list) flags[name] ??= [];
    else if (flags[name] === undefined && spec.default !== undefined) flags[name] = spec.default;
  }
  return { kind: 'run', command, global, flags, args, usage };
}
