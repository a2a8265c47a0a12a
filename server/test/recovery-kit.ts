import { VerificationType } from '@keycard/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type CodeType, issueCode } from '../src/codes/codes.ts';
import type { MailKind, MailRequest, MailValues } from '../src/mail/mail-kinds.ts';
import type { MailQueue, RecoveryDeps } from '../src/recovery/recovery-deps.ts';
import { createRecoveryLimits } from '../src/recovery/recovery-limits.ts';
import { manualClock } from '../src/store/clock.ts';
import type { Db } from '../src/store/database.ts';
import { csrfHeaders, fetchCsrf, testConfig } from './support/app.ts';

/** Test helpers shared by the recovery-*.test.ts files. */

export const PUBLIC_URL = 'https://keycard.example';
export const DEFAULT_REDIRECT = 'https://keycard.example/demo';
export const STRONG = 'Correct-Horse-42';
export const NEW_PASSWORD = 'Brand-New-Secret-77';

/** A mail queue that keeps what it is handed, so tests read links from it. */
export interface RecordingMail extends MailQueue {
  readonly queued: MailRequest[];
  nudges: number;
  /** The messages of one kind to one address, oldest first. */
  of<K extends MailKind>(kind: K, to?: string): MailValues[K][];
}

export function recordingMail(): RecordingMail {
  const queued: MailRequest[] = [];
  return {
    queued,
    nudges: 0,
    async queue(_tx, request) {
      queued.push(request);
      return { id: String(queued.length) };
    },
    nudge() {
      this.nudges += 1;
    },
    of<K extends MailKind>(kind: K, to?: string) {
      return queued
        .filter((mail) => mail.kind === kind && (to === undefined || mail.to === to))
        .map((mail) => mail.values as MailValues[K]);
    },
  };
}

export type TestRecoveryDeps = RecoveryDeps & {
  readonly mail: RecordingMail;
  readonly clock: ReturnType<typeof manualClock>;
};

/** Recovery dependencies on a test database with a clock that only moves when told to. */
export function recoveryDeps(db: Db, overrides: Partial<RecoveryDeps> = {}): TestRecoveryDeps {
  return {
    db,
    clock: manualClock(),
    mail: recordingMail(),
    publicUrl: PUBLIC_URL,
    defaultRedirectUrl: DEFAULT_REDIRECT,
    passwordHistory: 5,
    passwordMinScore: 3,
    codeLifetimes: testConfig().codeLifetimes,
    limits: createRecoveryLimits(),
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    ...overrides,
  } as TestRecoveryDeps;
}

/**
 * The same dependencies, whose clock does `meanwhile` when first read: the unlock and new-address
 * links read it once their code and account are read, so `meanwhile` is what another request
 * committed between those reads and the link's transaction.
 */
export function withMeanwhile(deps: TestRecoveryDeps, meanwhile: () => Promise<void>): TestRecoveryDeps {
  let pending = true;
  const { clock } = deps;
  return {
    ...deps,
    clock: {
      ...clock,
      async now() {
        if (pending) {
          pending = false;
          await meanwhile();
        }
        return clock.now();
      },
    },
  };
}

/** The code of a mail link: its last path segment. */
export function codeOf(link: string): string {
  const segment = new URL(link).pathname.split('/').at(-1);
  if (!segment) throw new Error(`no code in ${link}`);
  return decodeURIComponent(segment);
}

export function issueResetCode(
  deps: Pick<RecoveryDeps, 'db' | 'clock' | 'codeLifetimes'>,
  accountId: string,
  type: CodeType = VerificationType.PasswordReset,
  payload?: Record<string, string>,
): Promise<string> {
  return issueCode(deps.db, deps.clock, deps.codeLifetimes, {
    accountId,
    type,
    ...(payload ? { payload } : {}),
  });
}

let ipCounter = 0;
/** A client address no other test has used, so per-IP limits of one test do not leak into another. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** Calls the JSON API as the SPA does (CSRF cookie and header), from a chosen client address. */
export interface ApiClient {
  post(
    path: string,
    payload: Record<string, unknown>,
    options?: { ip?: string; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
}

export async function apiClient(app: FastifyInstance): Promise<ApiClient> {
  const session = await fetchCsrf(app);
  return {
    post(path, payload, options = {}) {
      return app.inject({
        method: 'POST',
        url: path,
        payload,
        remoteAddress: options.ip ?? freshIp(),
        headers: { ...csrfHeaders(session), ...options.headers },
      });
    },
  };
}

export { outboxMails } from './support/outbox.ts';

/** The one link of a mail's plain-text part. */
export function linkIn(textBody: string): string {
  const links = textBody.match(/https?:\/\/\S+/g) ?? [];
  if (links.length !== 1) throw new Error(`expected one link, found ${links.length}`);
  return links[0] as string;
}
