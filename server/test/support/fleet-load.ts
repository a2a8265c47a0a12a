import { randomBytes } from 'node:crypto';
import { VerificationType } from '@keycard/contract';
import { FleetBrowser, type Tally } from './fleet-browser.ts';
import {
  forgotPassword,
  login,
  type Mailbox,
  mailedCode,
  openSignInPage,
  resetCodeValid,
  resetPassword,
  signIn,
  signOut,
  unlock,
} from './fleet-flows.ts';

/** A simulated person: an account and its current password. */
export interface Person {
  readonly email: string;
  password: string;
}

export const FLOWS = ['sign-in', 'reset', 'lockout'] as const;
export type FlowName = (typeof FLOWS)[number];

/** What the load did, summed over every person. */
export interface LoadCounts {
  /** Flows that ran to their end, each step answered as the flow needs. */
  readonly completed: Record<FlowName, number>;
  /** Flows cut off because an answer was lost; the person recovered with a password reset. */
  interrupted: number;
  /** Mailed reset codes that set a password. */
  readonly resetCodes: string[];
  /**
   * Mailed unlock codes that unlocked. An unlock is idempotent (DESIGN §2 Codes: a second open shows
   * the same success and changes nothing), so the audit trail tells how often one took effect.
   */
  readonly unlockCodes: string[];
  /** Second uses of a spent reset code that the service still took as valid (must stay 0). */
  secondUsesAccepted: number;
}

/** Who runs the load and against what. */
export interface LoadSettings {
  readonly origin: string;
  readonly people: readonly Person[];
  readonly mailbox: Mailbox;
  readonly tally: Tally;
  /** A client address for each flow's browser: a person on the move, never near a per-IP limit. */
  readonly ip: () => string;
  /** LOCKOUT_THRESHOLD of the fleet. */
  readonly threshold: number;
  /**
   * Whether an instance died (SIGKILL) since `since`: mail it had claimed stays with its lease, so a
   * person may wait for it in vain and ask again, as a person would.
   */
  readonly killedSince: (since: number) => boolean;
}

interface LoadOptions extends LoadSettings {
  /** True once the load should end; each person finishes the flow in hand first. */
  readonly done: () => boolean;
  /** Called after every finished flow. */
  readonly onFlow: () => void;
}

export function emptyCounts(): LoadCounts {
  return {
    completed: { 'sign-in': 0, reset: 0, lockout: 0 },
    interrupted: 0,
    resetCodes: [],
    unlockCodes: [],
    secondUsesAccepted: 0,
  };
}

/** A password the policy takes (SPEC §5) and the strength estimate rates high. */
export function newPassword(): string {
  return `Fleet-${randomBytes(9).toString('base64url')}-7q`;
}

type Flow = (
  browser: FleetBrowser,
  person: Person,
  options: LoadOptions,
  counts: LoadCounts,
) => Promise<void>;

const signInAndOut: Flow = async (browser, person) => {
  await signOut(browser, await signIn(browser, person.email, person.password));
};

/** Forgot password, the mailed code, a new password; the code is refused a second time. */
const reset: Flow = async (browser, person, options, counts) => {
  const code = await forgotPassword(browser, options.mailbox, person.email);
  if (!(await resetCodeValid(browser, code))) throw new Error('a fresh reset code was refused');
  const password = newPassword();
  if (!(await resetPassword(browser, code, password))) throw new Error('the reset with a fresh code failed');
  person.password = password;
  counts.resetCodes.push(code);
  if (await resetCodeValid(browser, code)) counts.secondUsesAccepted += 1;
  await signInAndOut(browser, person, options, counts);
};

/**
 * Wrong passwords until the account locks (LOCKOUT_THRESHOLD of them, unless an answer was lost),
 * the right one refused while locked, then the mailed unlock code and a sign-in.
 */
const lockout: Flow = async (browser, person, options, counts) => {
  const from = options.mailbox.sink.received.length;
  const { returnUrl } = await openSignInPage(browser);
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const result = await login(browser, person.email, `${person.password}-wrong`, returnUrl);
    if (result.verificationType === VerificationType.LockedAfterTooManyFailedAttempts) break;
    if (attempts >= options.threshold) throw new Error(`not locked after ${attempts} wrong passwords`);
  }
  if (attempts !== options.threshold && browser.lost === 0) {
    throw new Error(`locked after ${attempts} wrong passwords, not ${options.threshold}`);
  }
  const refused = await login(browser, person.email, person.password, returnUrl);
  if (refused.verificationType !== VerificationType.LockedAfterTooManyFailedAttempts) {
    throw new Error('the right password signed in while locked');
  }
  const code = await mailedCode(options.mailbox, person.email, 'unlock', from);
  if (!(await unlock(browser, code))) throw new Error('the mailed unlock code was refused');
  counts.unlockCodes.push(code);
  await signInAndOut(browser, person, options, counts);
};

const RUN: Record<FlowName, Flow> = { 'sign-in': signInAndOut, reset, lockout };
/** A person whose flow lost an answer tries again this often, each time with a password reset. */
const RECOVERIES = 3;

/**
 * Runs one flow in a fresh browser. A flow that fails after a lost answer (or while mail may be stuck
 * with a dead instance) ends in a password reset, as a person would recover; any other failure fails
 * the load.
 */
async function runFlow(name: FlowName, person: Person, options: LoadOptions, counts: LoadCounts) {
  for (let attempt = 0; ; attempt++) {
    const browser = new FleetBrowser(options.origin, options.ip(), options.tally);
    const started = Date.now();
    const flow = attempt === 0 ? name : 'reset';
    try {
      await RUN[flow](browser, person, options, counts);
      if (attempt === 0) counts.completed[name] += 1;
      return;
    } catch (error) {
      const excused = browser.lost > 0 || options.killedSince(started);
      if (!excused || attempt === RECOVERIES) throw error;
      if (attempt === 0) counts.interrupted += 1;
    } finally {
      browser.close();
    }
  }
}

/** Every person runs the flows in turn, each starting at another one, until `done()`. */
async function runLoad(options: LoadOptions, counts: LoadCounts): Promise<void> {
  await Promise.all(
    options.people.map(async (person, index) => {
      for (let turn = index; !options.done(); turn++) {
        const name = FLOWS[turn % FLOWS.length] ?? 'sign-in';
        await runFlow(name, person, options, counts);
        options.onFlow();
      }
    }),
  );
}

/** Finished flows, counted, for a scenario to wait on ("6 more flows") instead of on the clock. */
class Progress {
  private finished = 0;
  private readonly waiters = new Set<() => void>();

  get count(): number {
    return this.finished;
  }

  add(): void {
    this.finished += 1;
    for (const wake of this.waiters) wake();
  }

  /** Resolves once `count` flows have finished in total; fails after `timeoutMs`. */
  reached(count: number, timeoutMs = 60_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.finished < count) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${this.finished} flows finished, waited for ${count}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** The load while a scenario runs. */
export interface RunningLoad {
  /** Resolves once `more` further flows have finished; rejects as soon as a flow fails. */
  flows(more: number): Promise<void>;
}

/**
 * Runs `scenario` while the simulated people run their flows; then lets each finish the flow in hand
 * and waits for all, however the scenario ended. A failed flow fails the scenario.
 */
export async function underLoad(
  settings: LoadSettings,
  counts: LoadCounts,
  scenario: (running: RunningLoad) => Promise<void>,
): Promise<void> {
  const progress = new Progress();
  let done = false;
  const running = runLoad({ ...settings, done: () => done, onFlow: () => progress.add() }, counts);
  const failed = running.then(() => new Promise<never>(() => {}));
  failed.catch(() => undefined); // seen through flows() and the final await
  try {
    await scenario({ flows: (more) => Promise.race([progress.reached(progress.count + more), failed]) });
  } finally {
    done = true;
    await running;
  }
}
