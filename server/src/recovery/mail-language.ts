import { type Language, languageFor } from '@keycard/contract';
import type { Account } from '../accounts/account-repository.ts';

/**
 * Mail is written in the account's language when it has one (DESIGN §2 Mail), set by an admin
 * (user:set-language) for whoever causes the mail. Without one, in the language the sign-in flow
 * asked for (`ui_locales`), as the person reads that flow's pages in it; else in the request's.
 */
export function mailLanguage(
  account: Pick<Account, 'locale'>,
  fallback: Language = 'en',
  flowLanguage: Language | null = null,
): Language {
  if (account.locale) return languageFor(account.locale);
  return flowLanguage ?? fallback;
}
