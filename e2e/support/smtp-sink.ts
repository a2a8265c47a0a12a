import { once } from 'node:events';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

/**
 * One message as the sink files it (a JSON file per message). Workers are other processes than the
 * one the sink runs in, so the folder is how they read what the service sent (support/mailbox.ts).
 */
export interface SunkMail {
  /** Arrival order within the run, from 1. */
  readonly seq: number;
  /** The envelope's recipients (RCPT TO), as the service addressed them. */
  readonly to: readonly string[];
  readonly from: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly messageId: string;
  /** Header lines by lower-case name (the last one of a repeated name). */
  readonly headers: Readonly<Record<string, string>>;
}

export interface SmtpSink {
  /** SMTP_URL for the service: smtp://127.0.0.1:<port>, no credentials, no STARTTLS. */
  readonly url: string;
  close(): Promise<void>;
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** File name of the message `seq`: zero-padded, so the names sort in arrival order. */
export function mailFileName(seq: number): string {
  return `${String(seq).padStart(6, '0')}.json`;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 and a free port that accepts every message, parses
 * it with postal-mime and writes it to `dir` (emptied first). Each file is written under a temporary
 * name and renamed, so a reader never sees half a message. A message is acknowledged only once its
 * file exists: whatever the service counts as sent can be read.
 */
export async function startSmtpSink(dir: string): Promise<SmtpSink> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  let received = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    closeTimeout: 100,
    logger: false,
    onData(stream, session, callback) {
      readAll(stream)
        .then(async (raw) => {
          const parsed = await PostalMime.parse(raw);
          received += 1;
          const mail: SunkMail = {
            seq: received,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            from: parsed.from?.address ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html ?? '',
            messageId: parsed.messageId ?? '',
            headers: Object.fromEntries(parsed.headers.map((header) => [header.key, header.value])),
          };
          const file = path.join(dir, mailFileName(mail.seq));
          await writeFile(`${file}.tmp`, JSON.stringify(mail, null, 2));
          await rename(`${file}.tmp`, file);
        })
        .then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
