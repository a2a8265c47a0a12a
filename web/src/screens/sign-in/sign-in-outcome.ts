import { type CallResponse, VerificationType } from '@keycard/contract';
import { identityUrl, safeTarget } from '../../routing/link-targets.ts';

/**
 * Path of SPEC §7's external-provider hand-off, equal to `getCalls.redirectToExternalIdentityProvider`
 * (a test pins it). Repeated because `getCalls` lives beside the zod schemas, which this screen's
 * code should not pull in before its first call.
 */
export const EXTERNAL_PROVIDER_PATH = '/api/RedirectToExternalIdentityProvider';

/** Where the browser goes after a sign-in call. */
export type SignInMove =
  /** A full page load, to the identity service (window.location.assign). */
  | { readonly kind: 'leave'; readonly url: string }
  /** A screen of this application, by path and query. */
  | { readonly kind: 'route'; readonly to: string }
  /** Stay: the wrong-password state of SPEC §8. */
  | { readonly kind: 'failed' };

const FAILED: SignInMove = { kind: 'failed' };

/**
 * SPEC §7 CheckUsername: the hand-off URL when the address belongs to an external provider, else
 * null (the password step follows). The service's normalised returnUrl wins over the page's own.
 */
export function externalProviderUrl(
  base: string,
  answer: CallResponse<'checkUsername'>,
  email: string,
  returnUrl: string,
): string | null {
  const guid = answer.externalIdentityProviderGuid;
  if (!answer.userHasExternalIdentityProvider || !guid) return null;
  const query = new URLSearchParams({
    returnUrl: answer.returnUrl ?? returnUrl,
    externalIdentityProviderGuid: guid,
    login_hint: email,
  });
  return identityUrl(base, `${EXTERNAL_PROVIDER_PATH}?${query}`);
}

/**
 * SPEC §7/§8 login results. `answer` is undefined when the call failed; `search` is the page's query
 * string, kept on the screens a failed login leads to.
 */
export function loginMove(
  base: string,
  answer: CallResponse<'login'> | undefined,
  search: string,
): SignInMove {
  if (!answer) return FAILED;
  if (answer.isAuthenticated) {
    // Only a local path may follow the base; anything else would leave the identity service.
    const target = safeTarget(answer.redirectUrl ?? '');
    return target.startsWith('/') ? { kind: 'leave', url: identityUrl(base, target) } : FAILED;
  }
  const { verificationType, verificationCode } = answer;
  if (verificationType === VerificationType.PasswordExpired && verificationCode) {
    const code = encodeURIComponent(verificationCode);
    return { kind: 'route', to: `/ResetPassword/${VerificationType.PasswordExpired}/${code}${search}` };
  }
  if (verificationType === VerificationType.LockedAfterTooManyFailedAttempts) {
    return { kind: 'route', to: `/locked${search}` };
  }
  return FAILED;
}
