import { createUserBody, setLanguageBody } from '@keycard/contract';
import { z } from 'zod';
import { normalizeEmail } from '../accounts/identifiers.ts';
import { isDeliverableAddress } from '../mail/mail-request.ts';
import { accountIdField, emailField, mailableEmailField, UNDELIVERABLE_MESSAGE } from './input-fields.ts';

/**
 * Inputs of the user operations (user-operations.ts). Their results are the admin API's answers and
 * live in the contract; the inputs add what only the server can check (mailability). The password
 * policy needs the configured strength, so user:add checks it itself (user-operations.ts).
 */
export {
  type AccountChangeResult,
  type AccountSummary,
  type AddUserResult,
  accountChangeResult,
  addUserResult,
  type ChangeEmailResult,
  changeEmailResult,
  type DeleteUserResult,
  type InviteResult,
  inviteResult,
  type UnlockResult,
  type UserView,
  unlockResult,
} from '@keycard/contract';

/** Without a password the account is invited, so its address must take mail. */
export const addUserInput = createUserBody.check((ctx) => {
  const { password, email } = ctx.value;
  if (password === undefined && !isDeliverableAddress(email)) {
    ctx.issues.push({ code: 'custom', path: ['email'], message: UNDELIVERABLE_MESSAGE, input: email });
  }
});
export type AddUserInput = z.input<typeof addUserInput>;

/**
 * The account an operation acts on: by e-mail (the CLI) or by id (the admin API's paths). Exactly
 * one; when neither is given the e-mail is reported missing, as the CLI names it.
 */
const accountRef = { email: emailField.optional(), id: accountIdField.optional() };

function exactlyOneRef(ctx: z.core.ParsePayload<{ email?: string | undefined; id?: string | undefined }>) {
  const { email, id } = ctx.value;
  if (email === undefined && id === undefined) {
    ctx.issues.push({ code: 'custom', path: ['email'], message: 'is required', input: undefined });
  } else if (email !== undefined && id !== undefined) {
    ctx.issues.push({
      code: 'custom',
      path: ['id'],
      message: 'give the e-mail or the id, not both',
      input: id,
    });
  }
}

/** Inputs of the operations that only name an account. */
export const accountInput = z.strictObject(accountRef).check(exactlyOneRef);

/** user:set-language: the account, and the language of its mail (null: the request's). */
export const setLanguageInput = z
  .strictObject({ ...accountRef, ...setLanguageBody.shape })
  .check(exactlyOneRef);
export type SetLanguageInput = z.input<typeof setLanguageInput>;
export type AccountInput = z.input<typeof accountInput>;
export type AccountRef = z.output<typeof accountInput>;

/** user:change-email: the account (by e-mail or id), and N, the address it moves to once confirmed. */
export const changeEmailInput = z
  .strictObject({ ...accountRef, newEmail: mailableEmailField })
  .check(exactlyOneRef)
  .check((ctx) => {
    const { email, newEmail } = ctx.value;
    if (email === undefined || normalizeEmail(email) !== normalizeEmail(newEmail)) return;
    ctx.issues.push({
      code: 'custom',
      path: ['newEmail'],
      message: 'must differ from the current address',
      input: newEmail,
    });
  });
export type ChangeEmailInput = z.input<typeof changeEmailInput>;
