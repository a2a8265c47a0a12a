import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readSecret, SecretInputError } from './stdin-secret.ts';

function piped(...chunks: string[]) {
  return readSecret(Readable.from(chunks), 'Password', () => undefined);
}

/** A terminal as the secret reader sees one: raw mode switchable, keystrokes arriving as data. */
function terminal() {
  const stream = Object.assign(new PassThrough(), { isTTY: true, rawModes: [] as boolean[] });
  return Object.assign(stream, {
    setRawMode(raw: boolean) {
      stream.rawModes.push(raw);
      return stream;
    },
  });
}

describe('reading a secret from standard input', () => {
  it('takes the piped line without its final newline', async () => {
    expect(await piped('Correct-Horse-42\n')).toBe('Correct-Horse-42');
    expect(await piped('Correct-', 'Horse-42\r\n')).toBe('Correct-Horse-42');
    expect(await piped('  spaced secret  ')).toBe('  spaced secret  ');
  });

  it('refuses empty, multi-line and oversized input', async () => {
    await expect(piped('')).rejects.toThrow(new SecretInputError('no Password on standard input'));
    await expect(piped('\n')).rejects.toThrow(SecretInputError);
    await expect(piped('one\ntwo\n')).rejects.toThrow('standard input must hold the secret on one line');
    await expect(piped('x'.repeat(20_000))).rejects.toThrow('standard input is too long for a secret');
  });

  it('on a terminal prompts on stderr, reads without echo until Enter and restores the mode', async () => {
    const tty = terminal();
    let shown = '';
    const secret = readSecret(tty, 'Password', (text) => (shown += text));
    tty.write('Correct-Horse-4');
    tty.write('x\u007f2');
    tty.write('\r');
    expect(await secret).toBe('Correct-Horse-42');
    expect(shown).toBe('Password: \n');
    expect(tty.rawModes).toEqual([true, false]);
  });

  it('on a terminal stops on Ctrl-C', async () => {
    const tty = terminal();
    const secret = readSecret(tty, 'Password', () => undefined);
    tty.write('abc\u0003');
    await expect(secret).rejects.toThrow('cancelled');
    expect(tty.rawModes).toEqual([true, false]);
  });
});
