import type { z } from 'zod';
import { InputError } from '../errors/input-error.ts';
import type { AdminRequest } from './admin-commands.ts';
import type { FlagSpec, ParsedFlags } from './cli-args.ts';

/** How one admin command looks on the command line: flags, help, input mapping and output. */
export interface CliCommand {
  readonly name: AdminRequest['command'];
  /** One line for the command list. */
  readonly summary: string;
  /** Paragraph under the usage line of the command's --help. */
  readonly details: string;
  readonly flags: readonly FlagSpec[];
  /** The switch that reads a secret from standard input, the input field it fills and its name. */
  readonly secret?: { readonly flag: string; readonly field: string; readonly label: string };
  /** The flag behind each input field, to name it in error messages. */
  readonly fieldFlags: Readonly<Record<string, string>>;
  toRequest(flags: ParsedFlags, secret: string | undefined): AdminRequest;
  /** The operation's value checked against its schema and told in one line; undefined if it does not fit. */
  describe(value: unknown): { readonly line: string; readonly result: unknown } | undefined;
}

/** Builds a CliCommand whose output line is typed by the operation's result schema. */
export function cliCommand<R>(
  spec: Omit<CliCommand, 'describe'> & { readonly result: z.ZodType<R>; format(value: R): string },
): CliCommand {
  const { result, format, ...rest } = spec;
  return {
    ...rest,
    describe(value) {
      const parsed = result.safeParse(value);
      return parsed.success ? { line: format(parsed.data), result: parsed.data } : undefined;
    },
  };
}

export const JSON_FLAG: FlagSpec = {
  name: 'json',
  kind: 'switch',
  description: 'print the result as one JSON object',
};
export const HELP_FLAG: FlagSpec = { name: 'help', kind: 'switch', description: 'show this help' };

/** `--email E` or `[--redirect-uri URI …]`, as the usage line shows it. */
function usageOf(flag: FlagSpec): string {
  const text = flag.placeholder ? `--${flag.name} ${flag.placeholder}` : `--${flag.name}`;
  if (flag.kind === 'list') return flag.required ? `${text} [${text} …]` : `[${text} …]`;
  return flag.required ? text : `[${text}]`;
}

export function commandHelp(command: CliCommand): string {
  const flags = [...command.flags, JSON_FLAG, HELP_FLAG];
  const left = flags.map((flag) =>
    flag.placeholder ? `--${flag.name} ${flag.placeholder}` : `--${flag.name}`,
  );
  const width = Math.max(...left.map((text) => text.length)) + 2;
  return [
    ['Usage: npm run admin --', command.name, ...command.flags.map(usageOf), '[--json]'].join(' '),
    '',
    command.details,
    '',
    'Flags:',
    ...flags.map((flag, index) => `  ${(left[index] ?? '').padEnd(width)}${flag.description}`),
    '',
  ].join('\n');
}

/**
 * An update's switch that takes a setting back (to none, or to its default): the input field it
 * sends `value` for (null unless said), and the flag that sets the field instead.
 */
export interface ResetSwitch {
  readonly reset: string;
  readonly field: string;
  readonly instead: string;
  readonly description: string;
  readonly value?: null | false | readonly never[];
}

/** The switches of `resets` as flags, for an update's flag list. */
export function resetFlags(resets: readonly ResetSwitch[]): FlagSpec[] {
  return resets.map(({ reset, description }) => ({ name: reset, kind: 'switch', description }));
}

/** The resets asked for, by field; one given with the flag it contradicts is refused. */
export function resetsGiven(
  flags: ParsedFlags,
  resets: readonly ResetSwitch[],
): Record<string, null | false | readonly never[]> {
  const given: Record<string, null | false | readonly never[]> = {};
  for (const { reset, field, instead, value = null } of resets) {
    if (!flags.has(reset)) continue;
    if (flags.has(instead)) throw new InputError(`give it or --${reset}, not both`, field);
    given[field] = value;
  }
  return given;
}
