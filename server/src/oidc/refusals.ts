import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { loggableMessage } from '../errors/loggable-error.ts';
import { newRequestId, requestIdOf } from '../errors/request-id.ts';
import { isDatabaseUnavailable } from '../store/unavailable.ts';

type Middleware = Parameters<Provider['use']>[0];

/** Where refusals are written: the service's pino logger (Fastify's `app.log`). */
export interface RefusalLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** How the person learned of the refusal: the SPA's error page, or an error sent to the client. */
type Answer = 'error_page' | 'redirect_uri';

interface Refusal {
  readonly reference: string;
  error: Error;
  answer: Answer;
}

interface ProtocolError extends Error {
  error?: string;
  error_description?: string;
}

// One record per request: the provider may report a request twice (its error, then the unregistered
// redirect_uri that stops it from being sent to the client); the log gets the last, once.
const refusals = new WeakMap<KoaContextWithOIDC, Refusal>();

/**
 * The reason an integrating developer looks for: the protocol's error code, made specific where the
 * code alone does not say what was wrong.
 */
export function refusalReason(error: ProtocolError): string {
  if (isDatabaseUnavailable(error)) return 'temporarily_unavailable';
  if (typeof error.error !== 'string') return 'server_error';
  if (error.error === 'invalid_client') return 'unknown_client';
  if (error.error === 'invalid_request' && /requires PKCE/.test(error.error_description ?? '')) {
    return 'pkce_required';
  }
  return error.error;
}

/**
 * Notes a refusal of this request (keeping the reference it already has) and answers its reference:
 * the request's id (errors/request-id.ts), which its answer's header and its request log line carry
 * too; a fresh one only where the provider runs outside the service's HTTP app.
 */
export function noteRefusal(ctx: KoaContextWithOIDC, error: Error, answer: Answer = 'redirect_uri'): string {
  const known = refusals.get(ctx);
  if (known) {
    known.error = error;
    if (answer === 'error_page') known.answer = answer;
    return known.reference;
  }
  const reference = requestIdOf(ctx.res) ?? newRequestId();
  refusals.set(ctx, { reference, error, answer });
  return reference;
}

/** A request parameter as the client sent it, cut short: it is the client's input, not trusted. */
function param(ctx: KoaContextWithOIDC, name: string): string | null {
  const params = (ctx.oidc?.params ?? ctx.query) as Record<string, unknown> | undefined;
  const value = params?.[name];
  return typeof value === 'string' ? value.slice(0, 2048) : null;
}

/**
 * The one log line of a refused request: its reference, the client id and redirect URI it named, the
 * reason and where the answer went. Only those: never the request's secrets or personal data (state,
 * nonce, code challenge, login hint, codes, tokens, client secrets).
 */
function refusalFields(ctx: KoaContextWithOIDC, refusal: Refusal) {
  const error = refusal.error as ProtocolError;
  return {
    reference: refusal.reference,
    endpoint: ctx.oidc?.route ?? null,
    clientId: param(ctx, 'client_id'),
    redirectUri: param(ctx, 'redirect_uri') ?? param(ctx, 'post_logout_redirect_uri'),
    reason: refusalReason(error),
    description: typeof error.error_description === 'string' ? error.error_description.slice(0, 300) : null,
    answer: refusal.answer,
  };
}

/** Writes the line of each refused request once the provider has answered it. */
export function logRefusals(log: RefusalLog): Middleware {
  return async (ctx, next) => {
    await next();
    const refusal = refusals.get(ctx as KoaContextWithOIDC);
    if (!refusal) return;
    const fields = refusalFields(ctx as KoaContextWithOIDC, refusal);
    // A failure of the service (a bug, or an outage of its database) is an error; a refused request
    // is the client's mistake, a warning.
    if (fields.reason === 'server_error' || fields.reason === 'temporarily_unavailable') {
      log.error({ ...fields, error: loggableMessage(refusal.error) }, 'protocol request failed');
    } else {
      log.warn(fields, 'protocol request refused');
    }
  };
}
