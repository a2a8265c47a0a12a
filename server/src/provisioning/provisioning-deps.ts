import type { StrengthScore } from '@keycard/contract';
import type { CodeLifetimes } from '../config.ts';
import type { SigningKeySettings } from '../oidc/keys.ts';
import type { MailQueue } from '../recovery/recovery-deps.ts';
import { type Clock, databaseClock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';

/** What every admin operation needs: the store, and the clock (the database's unless a test passes one). */
export interface ProvisioningDeps {
  readonly db: Db;
  readonly clock?: Clock;
  /** Needed by the commands that queue mail (provisioning-mailing.ts builds it); they fail without it. */
  readonly mailing?: ProvisioningMailing;
  /**
   * Needed by the signing key commands (keys:list, keys:rotate) and by a client registration that
   * names an ID-token algorithm (checked against the keys signing now); they fail without it.
   */
  readonly signingKeys?: SigningKeySettings;
  /** Who asked, for the audit log: the admin API's client id; absent for the CLI. */
  readonly actor?: string;
  /** PASSWORD_MIN_SCORE, for the commands that set a password; absent: its default. */
  readonly passwordMinScore?: StrengthScore;
}

export function clockOf(deps: ProvisioningDeps): Clock {
  return deps.clock ?? databaseClock(deps.db);
}

/**
 * How admin commands that send mail (user:add without a password, user:invite, user:change-email)
 * reach the outbox: the PUBLIC_URL their links are built from and the queue. The CLI builds one from
 * its own config, the running service passes its mail service, whose nudge wakes its worker.
 */
export interface ProvisioningMailing {
  readonly publicUrl: string;
  readonly mail: MailQueue;
  /** The configured code lifetimes: an invitation or e-mail change link lives as long as configured. */
  readonly codeLifetimes: CodeLifetimes;
}
