import type { StrengthScore } from '@keycard/contract';
import type { CodeLifetimes } from '../config.ts';
import type { ClientCache } from '../oidc/client-cache.ts';
import type { SigningKeySettings } from '../oidc/keys.ts';
import type { ConfiguredResource } from '../oidc/resource-servers.ts';
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
  /**
   * RESOURCE_SERVERS of the process that runs the command: listed beside the registered ones, and
   * named when a command would change one of them. Absent: none.
   */
  readonly configuredResources?: readonly ConfiguredResource[];
  /** Who asked, for the audit log: the admin API's client id; absent for the CLI. */
  readonly actor?: string;
  /** PASSWORD_MIN_SCORE, for the commands that set a password; absent: its default. */
  readonly passwordMinScore?: StrengthScore;
  /** Where the request came from, for every admin audit row; each of the three doors sets it. */
  readonly origin?: AdminOrigin;
  /**
   * The running service's cached client registrations (oidc/client-cache.ts): a client changed here
   * is forgotten once the change has committed, so this instance's next request reads it. Other
   * processes hear of it from the database (oidc/client-changes.ts).
   */
  readonly clientCache?: Pick<ClientCache, 'forget'> | undefined;
}

/**
 * The caller of an admin command as its audit row records it: through the admin API the client's
 * address and User-Agent; through the CLI how it reached the database (`local socket` to the running
 * service, `local process` on a database it opened) and the operating-system user and host it ran as.
 */
export interface AdminOrigin {
  readonly address: string | null;
  readonly userAgent: string | null;
}

/** What the admin CLI says of itself, over the admin socket or in its own process. */
export interface CliProcess {
  readonly user: string;
  readonly host: string;
  readonly pid: number;
}

export function cliUserAgent(cli: CliProcess): string {
  return `keycard admin CLI (user ${cli.user} on ${cli.host}, pid ${cli.pid})`;
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
