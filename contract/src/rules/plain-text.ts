/**
 * Characters no field of any call may hold (DESIGN §2 Bad input): the control characters (U+0000–U+001F,
 * U+007F and the C1 controls U+0080–U+009F) and surrogate halves without their partner. None of them is
 * typed by a person, PostgreSQL refuses a NUL outright, and a lone surrogate has no UTF-8 form, so each
 * is refused as bad input, naming the field, before any rule or the database sees the value.
 */
const BAD_CHARACTER = /[\p{Cc}\p{Cs}]/u;

/** What a refusal says about the value (never the value itself, which may be a secret). */
export const BAD_CHARACTER_MESSAGE = 'must not contain control characters or unpaired surrogates';

/** True when `value` holds no control character and no unpaired surrogate. */
export function isPlainText(value: string): boolean {
  return !BAD_CHARACTER.test(value);
}
