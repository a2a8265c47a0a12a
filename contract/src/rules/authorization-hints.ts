/**
 * What the sign-in page takes from a relying party's authorization request (OpenID Connect Core
 * §3.1.2.1 `login_hint`, `ui_locales`), written once for the service, which forwards them to the
 * page, and the SPA, which reads them there: the browser can change what it reads, so both check.
 */
import { LANGUAGES, type Language } from '../text-keys.ts';
import { isPlainText } from './plain-text.ts';

/** The longest product name a client may register, and so the longest the sign-in page shows. */
export const MAX_PRODUCT_NAME_LENGTH = 100;

/**
 * The product name to show from the ReturnUrl's `product` (SPEC §3), trimmed, or null for an empty,
 * overlong or odd value: anyone can write a link to the sign-in page, and no registered name is longer,
 * so a longer one is a message someone made up, not a product.
 */
export function usableProductName(product: string | null | undefined): string | null {
  const trimmed = typeof product === 'string' ? product.trim() : '';
  if (trimmed === '' || trimmed.length > MAX_PRODUCT_NAME_LENGTH || !isPlainText(trimmed)) return null;
  return trimmed;
}

/** The longest login hint forwarded: the longest e-mail address the calls accept. */
export const MAX_LOGIN_HINT_LENGTH = 320;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** One '@', something before it, a dotted domain after it, no spaces: an address worth trying. */
const PLAUSIBLE_EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The hint to prefill the e-mail field with, trimmed, or null for an empty, overlong or odd value. */
export function usableLoginHint(hint: string | null | undefined): string | null {
  const trimmed = typeof hint === 'string' ? hint.trim() : '';
  if (trimmed === '' || trimmed.length > MAX_LOGIN_HINT_LENGTH || CONTROL_CHARACTERS.test(trimmed)) {
    return null;
  }
  return trimmed;
}

/** True for a hint that looks like an e-mail address: the page may go on to the next step with it. */
export function isPlausibleEmail(value: string): boolean {
  return value.length <= MAX_LOGIN_HINT_LENGTH && PLAUSIBLE_EMAIL.test(value);
}

/**
 * The first supported language of a `ui_locales` value (space-separated BCP 47 tags in order of
 * preference), or null when none is supported: then the browser's language applies.
 */
export function firstSupportedLanguage(uiLocales: string | null | undefined): Language | null {
  if (typeof uiLocales !== 'string') return null;
  for (const tag of uiLocales.split(' ').slice(0, 16)) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    if ((LANGUAGES as readonly string[]).includes(primary)) return primary as Language;
  }
  return null;
}
