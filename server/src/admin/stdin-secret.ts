/**
 * Reads a password or client secret from standard input (DESIGN §5: never from arguments).
 * Piped: the whole input, one line, the final newline dropped. A terminal: a prompt on stderr and
 * the line typed without echo, so the secret is neither in the shell history nor on screen.
 */
export interface SecretSource extends AsyncIterable<Buffer | string> {
  readonly isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export class SecretInputError extends Error {}

const MAX_SECRET_BYTES = 16 * 1024;

export async function readSecret(
  input: SecretSource,
  label: string,
  prompt: (text: string) => void,
): Promise<string> {
  const secret =
    input.isTTY && input.setRawMode ? await typedSecret(input, label, prompt) : await pipedSecret(input);
  if (secret === '') throw new SecretInputError(`no ${label} on standard input`);
  return secret;
}

async function pipedSecret(input: SecretSource): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_SECRET_BYTES) throw new SecretInputError('standard input is too long for a secret');
    chunks.push(bytes);
  }
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (/[\r\n]/.test(text)) throw new SecretInputError('standard input must hold the secret on one line');
  return text;
}

const ENTER = new Set(['\r', '\n', '\u0004']);
const ABORT = '\u0003';
const ERASE = new Set(['\u007f', '\b']);

function typedSecret(input: SecretSource, label: string, prompt: (text: string) => void): Promise<string> {
  prompt(`${label}: `);
  input.setRawMode?.(true);
  input.resume();
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const finish = () => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      prompt('\n');
    };
    const onData = (chunk: Buffer | string) => {
      for (const character of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (ENTER.has(character)) {
          finish();
          return resolve(typed.join(''));
        }
        if (character === ABORT) {
          finish();
          return reject(new SecretInputError('cancelled'));
        }
        typed = ERASE.has(character) ? typed.slice(0, -1) : [...typed, character];
      }
    };
    input.on('data', onData);
  });
}
