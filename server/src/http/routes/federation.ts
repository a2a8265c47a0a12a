import { getCalls, plainText } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { auditRow, recordAudit } from '../../audit/audit-log.ts';
import { cookiePolicy } from '../../cookie-policy.ts';
import { completeUpstreamSignIn } from '../../federation/complete-upstream-sign-in.ts';
import { reauthenticationAsked, upstreamLoginTime } from '../../federation/reauthentication.ts';
import {
  type FederationDeps,
  type FederationRefusal,
  startUpstreamSignIn,
} from '../../federation/start-upstream-sign-in.ts';
import { upstreamConfigurations } from '../../federation/upstream-client.ts';
import { decodeFlow, encodeFlow, UPSTREAM_FLOW_TTL_SECONDS } from '../../federation/upstream-flow.ts';
import { withoutLoginHint } from '../../oidc/interaction-url.ts';
import { localReturnPathOrNull, signInPagePath } from '../../redirects/redirect-rules.ts';
import { CROSS_SITE_EXEMPTIONS } from '../csrf.ts';
import { finishLogin, liveInteraction } from '../live-interaction.ts';
import { answerNavigationError } from '../navigation-errors.ts';
import type { RouteModule } from '../route-module.ts';

/** Where upstream providers send the browser back (DESIGN §5); csrf.ts lets that cross-site GET in. */
export const UPSTREAM_CALLBACK_PATH = '/api/ExternalIdentityProviderCallback';

/** The authorization response (RFC 6749 §4.1.2, RFC 9207 iss); providers may add parameters of their own. */
const callbackQuery = z.object({
  code: plainText().max(4096).optional(),
  state: plainText().max(512).optional(),
  iss: plainText().max(2048).optional(),
  error: plainText().max(256).optional(),
});

/**
 * Each upstream sign-in has a flow cookie of its own, named after its `state`, so two at once in one
 * browser (two tabs) do not spoil each other and a callback finds its flow by the state it carries.
 * At most this many live in one browser: a new one retires the oldest, so the cookies cannot grow the
 * request headers without bound.
 */
const MAX_FLOWS_PER_BROWSER = 3;
/** The states this service makes (openid-client's randomState: base64url); anything else names no flow. */
const FLOW_STATE = /^[\w-]{1,128}$/;

/**
 * SPEC §7 /api/RedirectToExternalIdentityProvider and its callback (DESIGN §1 Federation). Both are
 * browser navigations, so a refusal is a redirect to the error page (with an audit event), never a
 * JSON answer, and never a session; so is a failure on the way (navigation-errors.ts).
 */
export const federationRoutes: RouteModule = (api, deps) => {
  const { publicUrl } = deps.config;
  // No upstream authentication older than a session lasts (reauthentication.ts).
  const asked = (interaction: { params: Readonly<Record<string, unknown>> }) =>
    reauthenticationAsked(interaction.params, deps.config.sessionLifetimes.absoluteSeconds);
  if (!CROSS_SITE_EXEMPTIONS.some((entry) => entry.path === UPSTREAM_CALLBACK_PATH)) {
    throw new Error('the upstream callback must be exempt from the cross-site rule (csrf.ts)');
  }
  const federation: FederationDeps = {
    db: deps.db,
    clock: deps.login.clock,
    callbackUrl: `${publicUrl}${UPSTREAM_CALLBACK_PATH}`,
    signIns: deps.login.signIns,
    configurations: upstreamConfigurations(() => deps.login.clock.estimate().getTime()),
  };
  // Lax (cookie-policy.ts): the provider's redirect back is a top-level GET navigation, which
  // carries Lax cookies.
  const { name: cookieBase, options: cookieOptions } = cookiePolicy(publicUrl).federation;
  const flowCookiePrefix = `${cookieBase}-`;

  /** The flow a signed cookie holds, if it is one this service set and it has not expired. */
  const flowOf = async (request: FastifyRequest, stored: string | undefined) => {
    const unsigned = stored === undefined ? undefined : request.unsignCookie(stored);
    if (!unsigned?.valid || unsigned.value === null) return null;
    return decodeFlow(unsigned.value, await federation.clock.now());
  };

  /** Clears the flow cookies a new flow must not sit beside: unreadable, expired, or beyond the newest few. */
  const retireOldFlows = async (request: FastifyRequest, reply: FastifyReply) => {
    const live: { name: string; expiresAt: number; order: number }[] = [];
    for (const [name, stored] of Object.entries(request.cookies)) {
      // Only names this service sets: one it could not write back cleared (`federation-a b`, planted
      // by a neighbouring site) is left alone rather than failing every trip upstream.
      if (!name.startsWith(flowCookiePrefix) || !FLOW_STATE.test(name.slice(flowCookiePrefix.length)))
        continue;
      const flow = await flowOf(request, stored);
      if (flow === null) reply.clearCookie(name, cookieOptions);
      else live.push({ name, expiresAt: flow.expiresAt, order: live.length });
    }
    // Newest first; of two started in the same millisecond, the later one sent (RFC 6265 §5.4: a
    // browser sends the older cookie of one path first).
    live.sort((a, b) => b.expiresAt - a.expiresAt || b.order - a.order);
    for (const { name } of live.slice(MAX_FLOWS_PER_BROWSER - 1)) reply.clearCookie(name, cookieOptions);
  };

  const refused = async (
    request: FastifyRequest,
    reply: FastifyReply,
    step: 'redirect' | 'callback',
    reason: FederationRefusal,
    providerId: string | null,
    cause?: string,
    target = `${publicUrl}/error`,
  ) => {
    // For the operator in the log too, under the request's reference: never a code, state or secret.
    request.log.info(
      { reference: request.id, step, reason, providerId, ...(cause === undefined ? {} : { cause }) },
      'upstream sign-in refused',
    );
    await recordAudit(deps.db, {
      event: 'federation',
      outcome: 'refused',
      ip: request.ip,
      detail: { step, reason, providerId, ...(cause === undefined ? {} : { cause }) },
    });
    return reply.redirect(target, 302);
  };

  // Both are navigations: what fails on the way ends on the error page too (navigation-errors.ts).
  const navigation = { errorHandler: answerNavigationError };

  api.get(getCalls.redirectToExternalIdentityProvider.path, navigation, async (request, reply) => {
    // A navigation, not a JSON call: a malformed link ends on the error page like any other refusal.
    const parsed = getCalls.redirectToExternalIdentityProvider.query.safeParse(request.query);
    if (!parsed.success) return refused(request, reply, 'redirect', 'bad_request', null);
    const query = parsed.data;
    const providerId = query.externalIdentityProviderGuid;
    // The same rule as /api/login: only this browser's live sign-in may be continued upstream.
    const returnUrl = localReturnPathOrNull(query.returnUrl);
    const interaction = await liveInteraction(deps.provider, returnUrl, request, reply);
    if (interaction === null || returnUrl === null) {
      return refused(request, reply, 'redirect', 'interaction_gone', providerId);
    }
    const started = await startUpstreamSignIn(federation, {
      providerId,
      loginHint: query.login_hint,
      returnUrl,
      reauthentication: asked(interaction),
    });
    if (!started.ok) return refused(request, reply, 'redirect', started.reason, providerId);
    await retireOldFlows(request, reply);
    reply.setCookie(`${flowCookiePrefix}${started.flow.state}`, encodeFlow(started.flow), {
      ...cookieOptions,
      maxAge: UPSTREAM_FLOW_TTL_SECONDS,
    });
    await recordAudit(deps.db, {
      event: 'federation',
      outcome: 'success',
      ip: request.ip,
      detail: { step: 'redirect', providerId },
    });
    return reply.redirect(started.url.href, 302);
  });

  api.get(UPSTREAM_CALLBACK_PATH, navigation, async (request, reply) => {
    // The flow this answer's state names. Single use: whatever happens next, it cannot be replayed
    // from this browser. An answer naming no flow of this browser's spends none of them.
    const { state } = request.query as { state?: unknown };
    const name = typeof state === 'string' && FLOW_STATE.test(state) ? `${flowCookiePrefix}${state}` : null;
    const stored = name === null ? undefined : request.cookies[name];
    if (name !== null && stored !== undefined) reply.clearCookie(name, cookieOptions);
    const flow = await flowOf(request, stored);
    // The signature covers the value, not the cookie's name: the flow must be the one of this state.
    if (flow === null || flow.state !== state) return refused(request, reply, 'callback', 'no_flow', null);
    if (!callbackQuery.safeParse(request.query).success) {
      return refused(request, reply, 'callback', 'upstream_error', flow.providerId);
    }
    const interaction = await liveInteraction(deps.provider, flow.returnUrl, request, reply);
    if (interaction === null) return refused(request, reply, 'callback', 'interaction_gone', flow.providerId);

    // The URL the provider redirected to, on the registered origin (openid-client derives redirect_uri from it).
    const callbackUrl = new URL(federation.callbackUrl);
    callbackUrl.search = new URL(request.url, publicUrl).search;
    const result = await completeUpstreamSignIn(federation, flow, callbackUrl, asked(interaction));
    if (!result.ok) {
      // A person who declined at their organisation's provider is back at sign-in, where they were,
      // to use another address or leave; without the hint, which the sign-in page would hand straight
      // back to that provider. Any other refusal ends on the error page.
      const declined = result.reason === 'upstream_error' && result.cause === 'access_denied';
      const target = declined ? `${publicUrl}${signInPagePath(withoutLoginHint(flow.returnUrl))}` : undefined;
      return refused(request, reply, 'callback', result.reason, result.providerId, result.cause, target);
    }

    // Its audit row goes with the interaction's result, in one statement; upstream, no count to clear.
    // By the provider's clock, which stamps the session's other times.
    const authTime = upstreamLoginTime(result.authTime, Math.floor(Date.now() / 1000));
    await finishLogin(
      interaction,
      result.account,
      ['fed'],
      {
        claimed: null,
        audit: auditRow({
          event: 'federation',
          outcome: 'success',
          accountId: result.account.id,
          ip: request.ip,
          detail: { step: 'callback', providerId: result.providerId, account: result.how },
        }),
      },
      { providerId: result.providerId, subject: result.subject, authTime },
    );
    // DESIGN §2 Redirect rules: a local resume path, on PUBLIC_URL; the provider finishes the code flow.
    return reply.redirect(`${publicUrl}${flow.returnUrl}`, 302);
  });
};
