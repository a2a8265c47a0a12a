import { postCalls } from '@keycard/contract';
import { checkVerification } from '../../recovery/check-verification.ts';
import { confirmNewEmail } from '../../recovery/confirm-new-email.ts';
import { requestPasswordReset } from '../../recovery/forgot-password.ts';
import { resetPassword } from '../../recovery/reset-password.ts';
import { unlockAccount } from '../../recovery/unlock-account.ts';
import { localReturnPathOrNull } from '../../redirects/redirect-rules.ts';
import { postCall } from '../contract-call.ts';
import { interactionLanguage, liveInteraction } from '../live-interaction.ts';
import { requestLanguage } from '../request-language.ts';
import type { RouteModule } from '../route-module.ts';

/** SPEC §7 forgotpassword, CheckVerification, ResetPassword, UnlockUser, VerifyNewEmail (DESIGN §2). */
export const recoveryRoutes: RouteModule = (api, { recovery, provider }) => {
  postCall(api, postCalls.forgotPassword, async (body, request, reply) => {
    // Asked from a sign-in page: the mail speaks that sign-in's language. Looked up for every input,
    // so it takes the same time whoever the address belongs to.
    const returnUrl = localReturnPathOrNull(body.returnUrl);
    const interaction = await liveInteraction(provider, returnUrl, request, reply);
    await requestPasswordReset(recovery, {
      email: body.email,
      locationSearch: body.locationSearch,
      ip: request.ip,
      language: requestLanguage(request),
      flowLanguage: interactionLanguage(interaction),
    });
    // DESIGN §2: the same answer for every input; whether a mail went out is never told.
    return {};
  });

  postCall(api, postCalls.checkVerification, (body, request) =>
    checkVerification(recovery, { code: body.verificationCode, type: body.verificationType, ip: request.ip }),
  );

  postCall(api, postCalls.resetPassword, async (body, request) => {
    const result = await resetPassword(recovery, {
      code: body.verificationCode,
      type: body.verificationType,
      newPassword: body.newPassword,
      redirectUrl: body.redirectUrl,
      ip: request.ip,
      language: requestLanguage(request),
    });
    return {
      success: result.outcome === 'reset',
      redirectUrl: result.outcome === 'reset' ? result.redirectUrl : null,
      policyViolation: result.outcome === 'policy_violation',
      historyViolation: result.outcome === 'history_violation',
    };
  });

  postCall(api, postCalls.unlockUser, async (body, request) => {
    const result = await unlockAccount(recovery, {
      code: body.verificationCode,
      redirectUrl: body.redirectUrl,
      ip: request.ip,
    });
    if (result.outcome === 'unlocked') {
      return {
        success: true,
        userName: result.userName,
        linkExpired: false,
        redirectUrl: result.redirectUrl,
      };
    }
    return { success: false, userName: null, linkExpired: result.outcome === 'expired', redirectUrl: null };
  });

  postCall(api, postCalls.verifyNewEmail, async (body, request) => {
    const result = await confirmNewEmail(recovery, {
      code: body.verificationCode,
      redirectUrl: body.redirectUrl,
      ip: request.ip,
      language: requestLanguage(request),
    });
    if (result.outcome === 'confirmed') {
      return { success: true, userFirstName: result.firstName, redirectUrl: result.redirectUrl };
    }
    return { success: false, userFirstName: null, redirectUrl: null };
  });
};
