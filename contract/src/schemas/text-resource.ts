import { z } from 'zod';
import {
  LANGUAGES,
  type Language,
  SITE_TEXT_KEYS,
  type SiteTextKey,
  TEXT_KEYS,
  type TextKey,
} from '../text-keys.ts';

const nonEmpty = z.string().min(1);

export const textResourceSchema = z.strictObject(
  Object.fromEntries(TEXT_KEYS.map((key) => [key, nonEmpty])) as Record<TextKey, typeof nonEmpty>,
);

export const siteTextsSchema = z.strictObject(
  Object.fromEntries(SITE_TEXT_KEYS.map((key) => [key, nonEmpty])) as Record<SiteTextKey, typeof nonEmpty>,
);

/** What a SITE_FILE value must be, as a refusal states it. */
export const SITE_VALUE_RULE = `must be a non-empty string or an object with a non-empty string for each of ${LANGUAGES.join(', ')}`;

/** A SITE_FILE value: one non-empty string, or an object with a non-empty string for every language. */
export const siteValueSchema = z.union(
  [
    nonEmpty,
    z.strictObject(
      Object.fromEntries(LANGUAGES.map((language) => [language, nonEmpty])) as Record<
        Language,
        typeof nonEmpty
      >,
    ),
  ],
  {
    error: `must be a non-empty string or an object with a non-empty string for each of ${LANGUAGES.join(', ')}`,
  },
);

/** SITE_FILE as written (a plain string per key still works): every site key, nothing else. */
export const siteFileSchema = z.strictObject(
  Object.fromEntries(SITE_TEXT_KEYS.map((key) => [key, siteValueSchema])) as Record<
    SiteTextKey,
    typeof siteValueSchema
  >,
);
