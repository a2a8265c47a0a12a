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
import { decodeFlow, encodeFlow, UPSTREAM_FLOW_TTL_SECONDS } from '../../federation/upstream-flow.ts';
import { localReturnPathOrNull } from '../../redirects/redirect-rules.ts';
import { CROSS_SITE_EXEMPTIONS } from '../csrf.ts';
import { finishLogin, liveInteraction } from '../live-interaction.ts';
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
 * SPEC §7 /api/RedirectToExternalIdentityProvider and its callback (DESIGN §1 Federation). Both are
 * browser navigations, so a refusal is a redirect to the error page (with an audit event), never a
 * JSON answer, and never a session.
 */
export const federationRoutes: RouteModule = (api, deps) => {
  const { publicUrl } = deps.config;
  if (!CROSS_SITE_EXEMPTIONS.some((entry) => entry.path === UPSTREAM_CALLBACK_PATH)) {
    throw new Error('the upstream callback must be exempt from the cross-site rule (csrf.ts)');
  }
  const federation: FederationDeps = {
    db: deps.db,
    clock: deps.login.clock,
    callbackUrl: `${publicUrl}${UPSTREAM_CALLBACK_PATH}`,
    signIns: deps.login.signIns,
  };
  // Lax (cookie-policy.ts): the provider's redirect back is a top-level GET navigation, which
  // carries Lax cookies.
  const { name: cookieName, options: cookieOptions } = cookiePolicy(publicUrl).federation;

  const refused = async (
    request: FastifyRequest,
    reply: FastifyReply,
    step: 'redirect' | 'callback',
    reason: FederationRefusal,
    providerId: string | null,
    cause?: string,
  ) => {
    await recordAudit(deps.db, {
      event: 'federation',
      outcome: 'refused',
      ip: request.ip,
      detail: { step, reason, providerId, ...(cause === undefined ? {} : { cause }) },
    });
    return reply.redirect(`${publicUrl}/error`, 302);
  };

  api.get(getCalls.redirectToExternalIdentityProvider.path, async (request, reply) => {
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
      reauthentication: reauthenticationAsked(interaction.params),
    });
    if (!started.ok) return refused(request, reply, 'redirect', started.reason, providerId);
    reply.setCookie(cookieName, encodeFlow(started.flow), {
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

  api.get(UPSTREAM_CALLBACK_PATH, async (request, reply) => {
    // Single use: whatever happens next, this flow cannot be replayed from this browser.
    const stored = request.cookies[cookieName];
    reply.clearCookie(cookieName, cookieOptions);
    const unsigned = stored === undefined ? undefined : request.unsignCookie(stored);
    const flow =
      unsigned?.valid && unsigned.value !== null
        ? decodeFlow(unsigned.value, await federation.clock.now())
        : null;
    if (flow === null) return refused(request, reply, 'callback', 'no_flow', null);
    if (!callbackQuery.safeParse(request.query).success) {
      return refused(request, reply, 'callback', 'upstream_error', flow.providerId);
    }
    const interaction = await liveInteraction(deps.provider, flow.returnUrl, request, reply);
    if (interaction === null) return refused(request, reply, 'callback', 'interaction_gone', flow.providerId);

    // The URL the provider redirected to, on the registered origin (openid-client derives redirect_uri from it).
    const callbackUrl = new URL(federation.callbackUrl);
    callbackUrl.search = new URL(request.url, publicUrl).search;
    const asked = reauthenticationAsked(interaction.params);
    const result = await completeUpstreamSignIn(federation, flow, callbackUrl, asked);
    if (!result.ok)
      return refused(request, reply, 'callback', result.reason, result.providerId, result.cause);

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
      authTime,
    );
    // DESIGN §2 Redirect rules: a local resume path, on PUBLIC_URL; the provider finishes the code flow.
    return reply.redirect(`${publicUrl}${flow.returnUrl}`, 302);
  });
};
