/** Business constants of SPEC §9 and DESIGN §2. */

/** SPEC §5/§9: minimum password length, counted in code points. */
export const PASSWORD_MIN_LENGTH = 12;
/** DESIGN §2: maximum password length accepted by a reset. */
export const PASSWORD_MAX_LENGTH = 256;
/**
 * Default of PASSWORD_MIN_SCORE, the least strength a new password must have on the estimator's 0–4
 * scale (rules/password-strength.ts). DESIGN names no value; 3 is the estimator's "safely
 * unguessable", ample behind the lockout and argon2id.
 */
export const DEFAULT_PASSWORD_MIN_SCORE = 3;
/** SPEC §9: delay before the browser follows a redirect after an action. */
export const REDIRECT_DELAY_MS = 12_500;
/** SPEC §9: delay before the post-logout redirect. */
export const LOGOUT_REDIRECT_DELAY_MS = 3_000;
/** SPEC §9: dark theme before this local hour, light from it. */
export const LIGHT_THEME_FROM_HOUR = 18;
/** SPEC §9: responsive breakpoints in CSS pixels. */
export const BREAKPOINTS = { xs: 576, sm: 768, md: 992, lg: 1400, xl: 1600 } as const;
/** SPEC §3: the ReturnUrl's product parameter defaults to the product's own name. */
export const PRODUCT_NAME = 'Keycard';
/** SPEC §9 / data policy: log retention in days (4 weeks). */
export const LOG_RETENTION_DAYS = 28;
/** Data policy date of SPEC §1. */
export const DATA_POLICY_DATE = '29.05.2018';
/** DESIGN §2: request bodies over this size answer 413. */
export const MAX_BODY_BYTES = 16 * 1024;
/** Header carrying the anti-forgery token (SPEC §7). */
export const CSRF_HEADER = 'X-CSRF-TOKEN';
/**
 * The query parameter of the /error page that says why it was reached, and its values: the service
 * is temporarily unavailable (a database outage during a sign-in or sign-out), or the person's network
 * sent too many requests, with the seconds to wait in WAIT_PARAM.
 */
export const ERROR_REASON_PARAM = 'reason';
export const UNAVAILABLE_REASON = 'unavailable';
export const RATE_LIMITED_REASON = 'rate_limited';
export const WAIT_PARAM = 'wait';
