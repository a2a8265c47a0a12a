import { type Language, languageFor } from '@keycard/contract';
import type { Account } from '../accounts/account-repository.ts';

/** Mail is written in the account's language when known, else in the request's (DESIGN §2 Mail). */
export function mailLanguage(account: Pick<Account, 'locale'>, fallback: Language = 'en'): Language {
  return account.locale ? languageFor(account.locale) : fallback;
}
