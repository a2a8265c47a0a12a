import { postCalls, VerificationType } from '@keycard/contract';
import { emailDomain } from '../../accounts/identifiers.ts';
import { attemptLogin } from '../../accounts/login.ts';
import { ServiceError } from '../../errors/service-error.ts';
import { upstreamProviderIdForDomain } from '../../federation/home-realm.ts';
import { localReturnPathOrNull } from '../../redirects/redirect-rules.ts';
import { postCall } from '../contract-call.ts';
import { finishLogin, interactionLanguage, liveInteraction } from '../live-interaction.ts';
import { requestLanguage } from '../request-language.ts';
import type { RouteModule } from '../route-module.ts';

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
    const interaction = await liveInteraction(deps.provider, returnUrl, request, reply);
    // Nothing to sign in to: answered before any password is looked at, the same for every password.
    if (interaction === null || returnUrl === null) {
      throw new ServiceError(
        'interaction_expired',
        'This sign-in has expired; start again from the application.',
      );
    }
    const result = await attemptLogin(
      deps.login,
      {
        email: body.Username,
        password: body.Password,
        ip: request.ip,
        language: requestLanguage(request),
        flowLanguage: interactionLanguage(interaction),
      },
      // A success goes on record with the interaction's result, in one statement.
      (account, record) => finishLogin(interaction, account, ['pwd'], record),
    );
    switch (result.outcome) {
      case 'authenticated':
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
