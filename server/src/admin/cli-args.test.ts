import { describe, expect, it } from 'vitest';
import { type FlagSpec, parseFlags } from './cli-args.ts';

const SPECS: FlagSpec[] = [
  { name: 'email', kind: 'value', required: true, description: '' },
  { name: 'redirect-uri', kind: 'list', description: '' },
  { name: 'password-stdin', kind: 'switch', description: '' },
];

function parse(args: string[]) {
  return parseFlags(args, SPECS, 'password-stdin');
}

describe('admin CLI flags', () => {
  it('reads values, repeated list flags, switches and --flag=value', () => {
    const result = parse([
      '--email',
      'a@b.example',
      '--redirect-uri=https://x/1',
      '--redirect-uri',
      'https://x/2',
      '--password-stdin',
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.flags.value('email')).toBe('a@b.example');
    expect(result.flags.list('redirect-uri')).toEqual(['https://x/1', 'https://x/2']);
    expect(result.flags.has('password-stdin')).toBe(true);
    expect(result.flags.has('json')).toBe(false);
  });

  it('keeps "=" inside a value', () => {
    const result = parse(['--email=a=b@c.example']);
    expect(result.ok && result.flags.value('email')).toBe('a=b@c.example');
  });

  it.each([
    [['--redirect-uri', 'https://x'], 'missing --email'],
    [['--email'], '--email needs a value'],
    [['--email', '--password-stdin'], '--email needs a value'],
    [['--email', 'a@b.c', '--email', 'd@e.f'], '--email may be given only once'],
    [['--email', 'a@b.c', '--password-stdin=yes'], '--password-stdin takes no value'],
    [['--email', 'a@b.c', '--colour', 'red'], 'unknown flag --colour'],
    [['--email', 'a@b.c', 'stray'], 'unexpected argument in position 4: every value follows its flag'],
    [['-e', 'a@b.c'], 'unexpected argument in position 2: every value follows its flag'],
  ])('refuses %j: %s', (args, message) => {
    expect(parse(args)).toEqual({ ok: false, message });
  });

  it('turns a secret given as an argument away without repeating it', () => {
    for (const args of [
      ['--password', 'Hunter2-Secret!'],
      ['--password=Hunter2-Secret!'],
      ['--secret=Hunter2-Secret!'],
    ]) {
      const result = parse(['--email', 'a@b.c', ...args]);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.message).toMatch(
        /secrets are never taken from arguments .*pipe it into --password-stdin/,
      );
      expect(result.message).not.toContain('Hunter2');
    }
  });

  it('never echoes an unknown flag that could be a value', () => {
    const result = parse(['--email', 'a@b.c', '--S3cret!Value with spaces']);
    expect(result).toEqual({ ok: false, message: 'unknown flag' });
  });
});
