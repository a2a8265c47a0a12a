import { z } from 'zod';
import { SITE_TEXT_KEYS, type SiteTextKey, TEXT_KEYS, type TextKey } from '../text-keys.ts';

const nonEmpty = z.string().min(1);

export const textResourceSchema = z.strictObject(
  Object.fromEntries(TEXT_KEYS.map((key) => [key, nonEmpty])) as Record<TextKey, typeof nonEmpty>,
);

export const siteTextsSchema = z.strictObject(
  Object.fromEntries(SITE_TEXT_KEYS.map((key) => [key, nonEmpty])) as Record<SiteTextKey, typeof nonEmpty>,
);
