import { z } from 'zod';
import type { ApiErrorCode, DeclaresErrors } from '../call-errors.ts';
import { PASSWORD_MAX_LENGTH } from '../constants.ts';
import { plainText } from './plain-text.ts';
import { verificationTypeSchema } from './verification-type.ts';

/**
 * Every call of SPEC §7: method, path, request and response schemas, written once. The server
 * validates requests against them (and responses in tests); the SPA's client is typed from them.
 * Request field names keep SPEC's spelling (Username, ReturnUrl …) because they are the wire format.
 */

const email = plainText().trim().max(320, 'too long');
/** A code travels in a URL; its shape is checked by the domain, which answers "invalid" for junk. */
const verificationCode = plainText().min(1, 'required').max(256, 'too long');
/** A URL or path chosen by the browser; the server validates it as a redirect target (DESIGN §2). */
const urlish = plainText().max(2048, 'too long');
/**
 * Login passwords are capped so hashing cost is bounded; resets enforce the tighter policy maximum.
 * Like every field, a password holds no control character (plainText): SPEC §5 builds passwords of
 * letters, digits and symbols, no keyboard types a control character into the field, and one is
 * answered as bad input (400 naming the field) rather than carried to the hash.
 */
const loginPassword = plainText().min(1, 'required').max(1024, 'too long');

export const getResourceQuery = z.object({
  requestedLanguageCode: plainText().max(64, 'too long').optional(),
});

export const logoutRequest = z.strictObject({
  logoutId: plainText().min(1, 'required').max(512, 'too long'),
  /** The person's answer to "Sign out of Keycard?", asked when the request carried no valid id_token_hint. */
  confirmed: z.boolean().optional(),
});
export const logoutResponse = z.object({
  username: z.string(),
  postLogoutRedirectUri: z.string().nullable(),
});

export const forgotPasswordRequest = z.strictObject({
  email: email.min(1, 'required'),
  returnUrl: urlish.nullish(),
  locationSearch: urlish.nullish(),
});
/** SPEC §7: the response is not read; it is identical for every input (DESIGN §2). */
export const forgotPasswordResponse = z.strictObject({});

export const checkVerificationRequest = z.strictObject({
  verificationCode,
  verificationType: verificationTypeSchema,
});
export const checkVerificationResponse = z.object({
  isValid: z.boolean(),
  userName: z.string().nullable(),
});

export const resetPasswordRequest = z.strictObject({
  verificationCode,
  verificationType: verificationTypeSchema,
  newPassword: plainText()
    .min(1, 'required')
    .max(PASSWORD_MAX_LENGTH * 4, 'too long'),
  redirectUrl: urlish.nullish(),
});
export const resetPasswordResponse = z.object({
  success: z.boolean(),
  redirectUrl: z.string().nullable(),
  policyViolation: z.boolean(),
  historyViolation: z.boolean(),
});

export const unlockUserRequest = z.strictObject({ verificationCode, redirectUrl: urlish.nullish() });
export const unlockUserResponse = z.object({
  success: z.boolean(),
  userName: z.string().nullable(),
  linkExpired: z.boolean(),
  redirectUrl: z.string().nullable().optional(),
});

export const verifyNewEmailRequest = z.strictObject({ verificationCode, redirectUrl: urlish.nullish() });
export const verifyNewEmailResponse = z.object({
  success: z.boolean(),
  userFirstName: z.string().nullable(),
  redirectUrl: z.string().nullable(),
});

export const loginRequest = z.strictObject({
  Username: email.min(1, 'required'),
  Password: loginPassword,
  ReturnUrl: urlish.nullish(),
});
export const loginResponse = z.object({
  isAuthenticated: z.boolean(),
  redirectUrl: z.string().nullable(),
  verificationType: verificationTypeSchema,
  verificationCode: z.string().nullable(),
});

export const checkUsernameRequest = z.strictObject({
  Username: email.min(1, 'required'),
  ReturnUrl: urlish.nullish(),
});
export const checkUsernameResponse = z.object({
  userHasExternalIdentityProvider: z.boolean(),
  returnUrl: z.string().nullable(),
  externalIdentityProviderGuid: z.string().nullable(),
});

export const redirectToExternalIdentityProviderQuery = z.object({
  returnUrl: urlish,
  externalIdentityProviderGuid: z.uuid(),
  login_hint: email.optional(),
});

/**
 * The way to an application named by a link's RedirectUrl (DESIGN §2 Redirect rules): the service
 * sends the browser there when its origin is allowed, else to DEFAULT_REDIRECT_URL. Without one, the
 * default. The SPA cannot know the allow-list, so its links to an application go through here.
 */
export const defaultRedirectQuery = z.object({ RedirectUrl: urlish.optional() });

/**
 * The JSON calls of SPEC §7 that the SPA makes with POST, by the path it uses. `errors` are the
 * call's own refusals; every call can answer the common ones of call-errors.ts besides.
 */
export const postCalls = {
  /** not_found: the sign-out request is unknown or has expired. */
  logout: {
    path: '/api/Logout',
    request: logoutRequest,
    response: logoutResponse,
    errors: ['not_found', 'confirmation_required'],
  },
  forgotPassword: {
    path: '/api/forgotpassword',
    request: forgotPasswordRequest,
    response: forgotPasswordResponse,
    errors: [],
  },
  checkVerification: {
    path: '/api/CheckVerification',
    request: checkVerificationRequest,
    response: checkVerificationResponse,
    errors: [],
  },
  resetPassword: {
    path: '/api/ResetPassword',
    request: resetPasswordRequest,
    response: resetPasswordResponse,
    errors: [],
  },
  unlockUser: {
    path: '/api/UnlockUser',
    request: unlockUserRequest,
    response: unlockUserResponse,
    errors: [],
  },
  verifyNewEmail: {
    path: '/api/VerifyNewEmail',
    request: verifyNewEmailRequest,
    response: verifyNewEmailResponse,
    errors: [],
  },
  /** interaction_expired: no live sign-in of this browser to continue (answered before the password). */
  login: {
    path: '/api/login',
    request: loginRequest,
    response: loginResponse,
    errors: ['interaction_expired'],
  },
  checkUsername: {
    path: '/api/CheckUsername',
    request: checkUsernameRequest,
    response: checkUsernameResponse,
    errors: [],
  },
} as const satisfies Record<string, DeclaresErrors & Record<string, unknown>>;

export type PostCallName = keyof typeof postCalls;
export type CallRequest<N extends PostCallName> = z.input<(typeof postCalls)[N]['request']>;
export type CallResponse<N extends PostCallName> = z.output<(typeof postCalls)[N]['response']>;
/** The error codes a POST call can answer: its own and the common ones (call-errors.ts). */
export type CallErrorCode<N extends PostCallName> = ApiErrorCode<(typeof postCalls)[N]>;

/**
 * GET calls of SPEC §7. RedirectToExternalIdentityProvider is a navigation: its refusals are
 * redirects to the error page, never an error body. DefaultRedirect, a navigation too, is the error
 * page's last way back (issue 16): it answers 303 to DEFAULT_REDIRECT_URL, which only the service knows.
 */
export const getCalls = {
  getResource: { path: '/api/i18n/getresource', query: getResourceQuery, errors: [] },
  getCsrfToken: { path: '/api/getcsrftoken', errors: [] },
  redirectToExternalIdentityProvider: {
    path: '/api/RedirectToExternalIdentityProvider',
    query: redirectToExternalIdentityProviderQuery,
    errors: [],
  },
  defaultRedirect: { path: '/api/DefaultRedirect', query: defaultRedirectQuery, errors: [] },
} as const satisfies Record<string, DeclaresErrors & Record<string, unknown>>;
