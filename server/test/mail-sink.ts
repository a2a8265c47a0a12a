import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

/** How the sink answers one message (its DATA command); `attempt` counts from 1. */
export type SinkAnswer = 'accept' | 'hang' | { readonly code: number; readonly message: string };

export interface ReceivedMail {
  readonly to: readonly string[];
  readonly raw: string;
  readonly parsed: Email;
}

export interface SmtpSink {
  readonly url: string;
  readonly received: readonly ReceivedMail[];
  /** Resolves once `count` messages have arrived in total; fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<readonly ReceivedMail[]>;
  /** Resolves with the first message from position `from` on that `matches`; fails after `timeoutMs`. */
  waitForMail(
    matches: (mail: ReceivedMail) => boolean,
    from?: number,
    timeoutMs?: number,
  ): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface SmtpSinkOptions {
  readonly answer?: (attempt: number) => SinkAnswer;
  /** Time the sink takes before answering each message, like a slow server. */
  readonly delayMs?: number;
  /** Required credentials; without them the sink accepts any client. */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** Senders the server refuses (MAIL FROM), as a relay refuses a domain it does not send for. */
  readonly refuseSender?: (
    address: string,
  ) => { readonly code: number; readonly message: string } | undefined;
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A real SMTP server (smtp-server) on 127.0.0.1 that parses what it receives with postal-mime. */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let attempts = 0;
  const server = new SMTPServer({
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    closeTimeout: 100,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.auth?.user && auth.password === options.auth?.pass;
      callback(ok ? null : smtpError(535, 'Authentication failed'), ok ? { user: auth.username } : undefined);
    },
    onMailFrom(address, _session, callback) {
      const refusal = options.refuseSender?.(address.address);
      callback(refusal ? smtpError(refusal.code, refusal.message) : undefined);
    },
    onData(stream, session, callback) {
      attempts += 1;
      const answer = options.answer?.(attempts) ?? 'accept';
      readAll(stream).then(
        async (raw) => {
          if (answer === 'hang') return; // never answers: the client's socket timeout decides
          if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
          if (answer !== 'accept') return callback(smtpError(answer.code, answer.message));
          const text = raw.toString('utf8');
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: text,
            parsed: await PostalMime.parse(text),
          });
          callback();
          for (const wake of waiters) wake();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  // A sender killed mid-message (the fleet test's SIGKILL) resets its connection; nothing was received.
  server.on('error', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  const credentials = options.auth ? `${options.auth.user}:${encodeURIComponent(options.auth.pass)}@` : '';
  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    received,
    waitFor(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          cleanup();
          resolve(received);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`expected ${count} messages, received ${received.length}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    waitForMail(matches, from = 0, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = received.slice(from).find(matches);
          if (!mail) return;
          cleanup();
          resolve(mail);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching message among ${received.length - from} received`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on: connecting is refused at once, like a dead SMTP server. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never says a word: an SMTP server that hangs. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
