import { postCalls, VerificationType } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from 'oidc-provider';
import { emailDomain } from '../../accounts/identifiers.ts';
import { attemptLogin } from '../../accounts/login.ts';
import { upstreamProviderIdForDomain } from '../../federation/home-realm.ts';
import { OIDC_MOUNT } from '../../oidc/provider.ts';
import { localReturnPathOrNull } from '../../redirects/redirect-rules.ts';
import { postCall } from '../contract-call.ts';
import { HttpError } from '../http-error.ts';
import type { RouteModule } from '../route-module.ts';

const RESUME_PATH = new RegExp(`^${OIDC_MOUNT}/auth/([A-Za-z0-9_-]{1,64})(?:\\?|$)`);

/**
 * The uid of this browser's live sign-in interaction when `returnUrl` is its resume path, else null.
 * The interaction cookie proves the browser started it, so a ReturnUrl copied from elsewhere is refused.
 */
async function liveInteractionUid(
  deps: Parameters<RouteModule>[1],
  returnUrl: string | null,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string | null> {
  const uid = returnUrl === null ? undefined : RESUME_PATH.exec(returnUrl)?.[1];
  if (!uid) return null;
  try {
    const interaction = await deps.provider.interactionDetails(request.raw, reply.raw);
    return interaction.uid === uid ? uid : null;
  } catch (error) {
    // No interaction cookie, or the interaction is gone. Anything else (a database outage) is not an
    // expired sign-in and goes to the error handler (503).
    if (error instanceof errors.SessionNotFound) return null;
    throw error;
  }
}

/** SPEC §7 /api/CheckUsername and /api/login (DESIGN §2 Login). */
export const signInRoutes: RouteModule = (api, deps) => {
  postCall(api, postCalls.checkUsername, async (body) => {
    const providerId = await upstreamProviderIdForDomain(deps.db, emailDomain(body.Username));
    return {
      userHasExternalIdentityProvider: providerId !== null,
      returnUrl: localReturnPathOrNull(body.ReturnUrl),
      externalIdentityProviderGuid: providerId,
    };
  });

  postCall(api, postCalls.login, async (body, request, reply) => {
    const returnUrl = localReturnPathOrNull(body.ReturnUrl);
    const uid = await liveInteractionUid(deps, returnUrl, request, reply);
    // Nothing to sign in to: answered before any password is looked at, the same for every password.
    if (uid === null || returnUrl === null) {
      throw new HttpError(
        'interaction_expired',
        'This sign-in has expired; start again from the application.',
      );
    }
    const result = await attemptLogin(deps.login, {
      email: body.Username,
      password: body.Password,
      ip: request.ip,
    });
    switch (result.outcome) {
      case 'authenticated':
        await deps.provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId: result.account.id, amr: ['pwd'], remember: true } },
          { mergeWithLastSubmission: false },
        );
        return {
          isAuthenticated: true,
          redirectUrl: returnUrl,
          verificationType: VerificationType.None,
          verificationCode: null,
        };
      case 'password_expired':
        return {
          isAuthenticated: false,
          redirectUrl: null,
          verificationType: VerificationType.PasswordExpired,
          verificationCode: result.code,
        };
      case 'locked':
        return {
          isAuthenticated: false,
          redirectUrl: null,
          verificationType: VerificationType.LockedAfterTooManyFailedAttempts,
          verificationCode: null,
        };
      case 'failed':
        return {
          isAuthenticated: false,
          redirectUrl: null,
          verificationType: VerificationType.None,
          verificationCode: null,
        };
    }
  });
};
