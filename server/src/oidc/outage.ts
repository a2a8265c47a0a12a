import { ERROR_REASON_PARAM, UNAVAILABLE_REASON } from '@keycard/contract';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../store/unavailable.ts';
import { protocolRoute } from './protocol-routes.ts';
import { noteRefusal } from './refusals.ts';

type Middleware = Parameters<Provider['use']>[0];

/**
 * A database outage in protocol terms: `temporarily_unavailable` (OIDC Core 3.1.2.6, RFC 6749
 * §4.1.2.1) with 503 and Retry-After, so a relying party can tell it from a bug and try again; a person
 * lands on the SPA's error page saying the service is temporarily unavailable. Nothing is cached
 * about it: the next request after the database is back is served as usual.
 */
export const OUTAGE_BODY = {
  error: 'temporarily_unavailable',
  error_description: 'the service is temporarily unavailable, try again shortly',
} as const;

/** The provider's endpoints (protocol-routes.ts) a person's browser is sent to. */
const PERSON_FACING = new Set([
  '/auth',
  '/auth/:uid',
  '/session/end',
  '/session/end/confirm',
  '/session/end/success',
]);

/**
 * The endpoints a person's browser is sent to (authorization and its resume, end-session): an outage
 * there is shown as a page; every other endpoint is called by a relying party and answers JSON.
 */
export function isPersonFacing(path: string): boolean {
  return PERSON_FACING.has(protocolRoute(path) ?? '');
}

/** What the SPA's error page is told of an outage: the service is temporarily unavailable. */
export function unavailablePageQuery(): URLSearchParams {
  return new URLSearchParams({ [ERROR_REASON_PARAM]: UNAVAILABLE_REASON });
}

/** The SPA's error page for an outage, with the reference of the request's log line when it has one. */
export function unavailablePage(reference?: string): string {
  const query = unavailablePageQuery();
  return `/error${reference === undefined ? '' : `/${reference}`}?${query}`;
}

/** How the provider's error page is reached for `error`: the outage page or the plain one. */
export function errorPageFor(reference: string, error: unknown): string {
  return isDatabaseUnavailable(error) ? unavailablePage(reference) : `/error/${reference}`;
}

// Requests whose failure the provider reported as a server_error caused by an outage.
const outages = new WeakSet<object>();

/** For the provider's `server_error` event: remembers that this request failed for an outage. */
export function noteOutage(ctx: KoaContextWithOIDC, error: unknown): void {
  if (isDatabaseUnavailable(error)) outages.add(ctx);
}

function answer(ctx: KoaContextWithOIDC, error: Error): void {
  if (isPersonFacing(ctx.path)) {
    ctx.status = 303;
    ctx.redirect(unavailablePage(noteRefusal(ctx, error, 'error_page')));
  } else {
    ctx.status = 503;
    ctx.body = OUTAGE_BODY;
  }
}

/**
 * Outermost provider middleware but for the refusal log: an outage met before the provider's own
 * error handling (this service's middlewares) is answered as above; one the provider's handlers
 * answered as a JSON server_error becomes the 503 temporarily_unavailable it is (pages already went to
 * the outage page through renderError). Every 503 carries Retry-After, as the API's do.
 */
export function answerOutages(): Middleware {
  return async (ctx, next) => {
    const oidcCtx = ctx as KoaContextWithOIDC;
    try {
      await next();
    } catch (error) {
      if (!(error instanceof Error && isDatabaseUnavailable(error))) throw error;
      answer(oidcCtx, error);
    }
    if (outages.has(ctx) && ctx.status === 500 && ctx.response.is('json')) {
      ctx.status = 503;
      ctx.body = OUTAGE_BODY;
    }
    if (ctx.status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
  };
}
