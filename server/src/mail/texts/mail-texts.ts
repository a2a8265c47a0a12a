import type { MailKind, MailValues } from '../mail-kinds.ts';

/**
 * The wording of one kind of message. Paragraphs may use the kind's values as {name} placeholders
 * (never {link}: the link is placed by the renderer, as a button and printed in full), plus
 * {product} and {supportEmail} from the site configuration.
 */
export type KindTexts<K extends MailKind> = {
  readonly subject: string;
  /** Before the link, or the whole message for kinds without one. */
  readonly intro: readonly string[];
  /** After the link: expiry, what to do if it was not you. */
  readonly outro: readonly string[];
} & (MailValues[K] extends { link: string }
  ? { /** Label of the link in the HTML part and its caption in the text part. */ readonly action: string }
  : { readonly action?: never });

/** Everything one language says in mail (STYLE: phrases typed per language, keys from one source). */
export interface MailTexts {
  readonly common: {
    /** First line of every message; {userName} is the account's display name. */
    readonly greeting: string;
    /** Above the printed link in the HTML part, for mail clients that hide or break the button. */
    readonly linkHint: string;
    /** Last paragraph of every message. */
    readonly footer: string;
  };
  readonly kinds: { readonly [K in MailKind]: KindTexts<K> };
}

/** Placeholders every text may use besides its kind's values. */
export const SITE_PLACEHOLDERS = ['product', 'supportEmail'] as const;

/** The link is rendered by the renderer, so it is never a placeholder inside a paragraph. */
export const RENDERER_ONLY_VALUES = ['link'] as const;
