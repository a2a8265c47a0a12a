import { z } from 'zod';
import { brokenPasswordRules } from '../accounts/password-policy.ts';
import { displayNameField, emailField, passwordField } from './admin-fields.ts';
import { describeBrokenRules } from './password-message.ts';

/** Inputs and results of the user operations (user-operations.ts). */

export const addUserInput = z
  .strictObject({
    email: emailField,
    name: displayNameField,
    /** Absent: the account has no password until an invitation sets one. */
    password: passwordField.optional(),
  })
  .check((ctx) => {
    const { password, email } = ctx.value;
    if (password === undefined) return;
    const broken = brokenPasswordRules(password, email);
    // `input` left empty: a zod issue otherwise carries the rejected value, here the password.
    if (broken.length > 0) {
      ctx.issues.push({
        code: 'custom',
        path: ['password'],
        message: describeBrokenRules(broken),
        input: '',
      });
    }
  });
export type AddUserInput = z.input<typeof addUserInput>;

/** Inputs of the operations that only name an account. */
export const accountInput = z.strictObject({ email: emailField });
export type AccountInput = z.input<typeof accountInput>;

export const accountSummary = z.object({ id: z.string(), email: z.string(), displayName: z.string() });
export type AccountSummary = z.output<typeof accountSummary>;

export const addUserResult = z.object({ account: accountSummary, hasPassword: z.boolean() });
export type AddUserResult = z.output<typeof addUserResult>;

/** `changed` is false when the account already was in the asked-for state. */
export const accountChangeResult = z.object({ account: accountSummary, changed: z.boolean() });
export type AccountChangeResult = z.output<typeof accountChangeResult>;

export const unlockResult = z.object({
  account: accountSummary,
  /** A lock was in force when the admin cleared it. */
  wasLocked: z.boolean(),
  /** Consecutive failures the counter held. */
  failuresCleared: z.number().int(),
});
export type UnlockResult = z.output<typeof unlockResult>;
