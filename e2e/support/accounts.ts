import { randomBytes } from 'node:crypto';
import { DEMO_EMAIL_ENV, DEMO_PASSWORD_ENV } from './paths.ts';

/** An account a journey signs in with. */
export interface Account {
  readonly email: string;
  /** Display name: the user name of the captions and the `name` claim (DESIGN §2). */
  readonly name: string;
  readonly password: string;
}

/**
 * The line the service prints once, at its first start in development (DESIGN §2 Modes). Matched
 * whole, so a line split across two chunks of output is never read half.
 */
export const DEMO_ACCOUNT_LINE = /Demo account created: (\S+@\S+) \/ password (\S+) \(shown only now\)/;

/**
 * The demo account's display name. The start-up line prints its e-mail and password only; the name
 * is the one server/src/demo/demo-setup.ts gives it.
 */
export const DEMO_ACCOUNT_NAME = 'Dana Demo';

/** The demo account global setup read from the service's output and handed on. */
export function demoAccountFromEnv(env: NodeJS.ProcessEnv = process.env): Account {
  const email = env[DEMO_EMAIL_ENV];
  const password = env[DEMO_PASSWORD_ENV];
  if (!email || !password) {
    throw new Error(
      `${DEMO_EMAIL_ENV}/${DEMO_PASSWORD_ENV} are not set: run the journeys through playwright.config.ts`,
    );
  }
  return { email, name: DEMO_ACCOUNT_NAME, password };
}

/**
 * An e-mail address no other test, worker or run uses: failure counters are kept per identifier
 * (DESIGN §2), so journeys that fail on purpose must never share one.
 */
export function uniqueEmail(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 24);
  return `e2e-${slug}-${randomBytes(5).toString('hex')}@keycard.test`;
}

/** A fresh account's details, unique to this call (label: the test's title, for reading logs). */
export function freshAccount(label: string): Account {
  const tag = randomBytes(3).toString('hex');
  return { email: uniqueEmail(label), name: `Erin Tester${tag}`, password: strongPassword() };
}

/** A random password that meets the policy of SPEC §5 (length, digit, lower, upper, other). */
export function strongPassword(): string {
  return `Pw-${randomBytes(9).toString('base64url')}-9aZ!`;
}

/** A password certainly different from `password`. */
export function wrongPasswordFor(password: string): string {
  return `${password}-not-it`;
}

/** LOCKOUT_THRESHOLD of the service (DESIGN §5); it runs with this process's environment. */
export function lockoutThreshold(env: NodeJS.ProcessEnv = process.env): number {
  const configured = env.LOCKOUT_THRESHOLD;
  return configured ? Number(configured) : 5;
}
