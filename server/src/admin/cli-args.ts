/**
 * The CLI's flag grammar: `--name value`, `--name=value`, repeatable list flags and switches.
 * Error messages name flags only, never a value: a mistyped command line may hold a secret.
 */
export interface FlagSpec {
  readonly name: string;
  /** value: exactly once at most; list: repeatable; switch: no value. */
  readonly kind: 'value' | 'list' | 'switch';
  readonly required?: boolean;
  /** Shown in help after the flag, e.g. "E" in `--email E`. */
  readonly placeholder?: string;
  readonly description: string;
}

export interface ParsedFlags {
  value(name: string): string | undefined;
  list(name: string): string[];
  has(name: string): boolean;
}

export type FlagParse = { ok: true; flags: ParsedFlags } | { ok: false; message: string };

/** Flags people reach for out of habit; secrets in argv end up in shell history and `ps`. */
const SECRET_FLAG = /^(pass(word)?|pw|secret|client-secret|token)$/i;

export function parseFlags(
  args: readonly string[],
  specs: readonly FlagSpec[],
  secretSwitch?: string,
): FlagParse {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const values = new Map<string, string[]>();
  for (let index = 0; index < args.length; index++) {
    const token = args[index] ?? '';
    if (!token.startsWith('--') || token === '--') {
      return fail(`unexpected argument in position ${index + 2}: every value follows its flag`);
    }
    const [name = '', inline] = splitOnce(token.slice(2));
    const spec = byName.get(name);
    if (!spec) return fail(unknownFlag(name, secretSwitch));
    const given = values.get(name) ?? [];
    if (spec.kind === 'switch') {
      if (inline !== undefined) return fail(`--${name} takes no value`);
      values.set(name, [...given, '']);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = args[index + 1];
      if (next === undefined || next.startsWith('--')) return fail(`--${name} needs a value`);
      value = next;
      index++;
    }
    if (spec.kind === 'value' && given.length > 0) return fail(`--${name} may be given only once`);
    values.set(name, [...given, value]);
  }
  const missing = specs.filter((spec) => spec.required && !values.has(spec.name));
  if (missing.length > 0) return fail(`missing ${missing.map((spec) => `--${spec.name}`).join(', ')}`);
  return {
    ok: true,
    flags: {
      value: (name) => values.get(name)?.[0],
      list: (name) => values.get(name) ?? [],
      has: (name) => values.has(name),
    },
  };
}

function splitOnce(text: string): [string, string | undefined] {
  const equals = text.indexOf('=');
  return equals < 0 ? [text, undefined] : [text.slice(0, equals), text.slice(equals + 1)];
}

function unknownFlag(name: string, secretSwitch: string | undefined): string {
  if (SECRET_FLAG.test(name)) {
    const instead = secretSwitch ? `pipe it into --${secretSwitch}` : 'this command takes none';
    return `secrets are never taken from arguments (--${name}); ${instead}`;
  }
  return /^[\w.-]{1,40}$/.test(name) ? `unknown flag --${name}` : 'unknown flag';
}

function fail(message: string): FlagParse {
  return { ok: false, message };
}
