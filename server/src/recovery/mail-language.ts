import { type Language, languageFor } from '@keycard/contract';
import type { Account } from '../accounts/account-repository.ts';

/**
 * Mail is written in the account's language when known, else in the request's (DESIGN §2 Mail). A
 * language the sign-in flow asked for (`ui_locales`) wins over both: the person reads that flow's
 * pages in it, so its mail says the same.
 */
export function mailLanguage(
  account: Pick<Account, 'locale'>,
  fallback: Language = 'en',
  flowLanguage: Language | null = null,
): Language {
  if (flowLanguage !== null) return flowLanguage;
  return account.locale ? languageFor(account.locale) : fallback;
}
