import {
  type Language,
  type LanguageTexts,
  languageFor,
  type SiteFile,
  siteTextsFor,
  type TextResource,
} from '@keycard/contract';
import { de } from './texts/de.ts';
import { en } from './texts/en.ts';

/** The localised texts of every language the resource is written in (SPEC §1). */
export type LanguageTextSet = Readonly<Record<Language, LanguageTexts>>;

export const LANGUAGE_TEXTS: LanguageTextSet = { en, de };

/**
 * The complete text resource for a browser language: the language's texts (by primary subtag,
 * English when unsupported) plus the site values of SITE_FILE in that language.
 */
export function textResourceFor(
  texts: LanguageTextSet,
  site: SiteFile,
  requestedLanguageCode: string | undefined,
): TextResource {
  const language = languageFor(requestedLanguageCode);
  return { ...texts[language], ...siteTextsFor(site, language) };
}
