import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { LoginDeps } from '../accounts/login.ts';
import type { Config } from '../config.ts';
import type { LanguageTextSet } from '../i18n/text-resource.ts';
import type { Mailer } from '../mail/mail-service.ts';
import type { LogoutQueue } from '../oidc/logout.ts';
import type { RecoveryDeps } from '../recovery/recovery-deps.ts';
import type { Db } from '../store/database.ts';

/** What every route module receives; domain dependencies are added here as issues need them. */
export interface RouteDeps {
  readonly config: Config;
  readonly db: Db;
  /** Mail outbox (mail-service.ts): `queue(tx, request)` inside the code's transaction, `nudge()` after it. */
  readonly mail: Mailer;
  readonly texts: LanguageTextSet;
  /** The OpenID Connect provider, for the sign-in interaction glue. */
  readonly provider: Provider;
  /** Store, clock and account rules of the login policy (DESIGN §2 Login). */
  readonly login: LoginDeps;
  /** Store, clock, mail, redirect rules and rate limits of the recovery flows (DESIGN §2). */
  readonly recovery: RecoveryDeps;
  /** Back-channel logout tokens of ended sessions: queued with the session's end, posted by a worker. */
  readonly logouts: LogoutQueue;
}

/**
 * One group of API calls (STYLE §5: thin — parse with the contract, call one domain function, map
 * the result). Registered in the API scope, where only JSON bodies are accepted and every POST has
 * already passed the CSRF check. Routes use the contract's full paths (e.g. postCalls.login.path).
 */
export type RouteModule = (api: FastifyInstance, deps: RouteDeps) => void | Promise<void>;
