import { VerificationType } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { findAccountById } from '../src/accounts/account-repository.ts';
import { viewOf } from '../src/provisioning/account-target.ts';
import { confirmNewEmail } from '../src/recovery/confirm-new-email.ts';
import { resetPassword } from '../src/recovery/reset-password.ts';
import { unlockAccount } from '../src/recovery/unlock-account.ts';
import { attemptSignIn } from './admin-api-kit.ts';
import { freshIp, issueResetCode, NEW_PASSWORD, recoveryDeps, STRONG } from './recovery-kit.ts';
import {
  claimsOf,
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * The ID token's email_verified says whether the person showed they hold the address: a mailed link
 * used, or (federation-upstream-identity.test.ts) an upstream provider's word. An address only an
 * administrator typed is not verified.
 */

const service = useTestService({ setUp: ({ db }) => registerTestClient(db) });
const db = () => service().db;
let serial = 0;

/** An account as an administrator makes one with a password (user:add --password-stdin). */
async function typedByAnAdministrator() {
  serial += 1;
  return createAccount(db(), `verified-${serial}@example.com`, STRONG, 'Ada Lovelace');
}

async function idTokenClaims(email: string, password: string) {
  const { browser, auth, body } = await attemptSignIn(service().app, email, password);
  expect(body.isAuthenticated).toBe(true);
  const tokens = await redeemCode(service().app, await resumeToCode(browser, auth.returnUrl), auth.verifier);
  return claimsOf(tokens.id_token);
}

/** Whether the account's address counts as verified, as the admin API's user view says it. */
async function verified(accountId: string): Promise<boolean> {
  const account = await findAccountById(db(), accountId);
  if (!account) throw new Error(`no account ${accountId}`);
  return viewOf(account).emailVerified;
}

function reset(deps: ReturnType<typeof recoveryDeps>, code: string, type: VerificationType) {
  return resetPassword(deps, { code, type, newPassword: NEW_PASSWORD, ip: freshIp(), language: 'en' });
}

describe('email_verified (OpenID Connect Core §5.1)', () => {
  it('is false for an address an administrator typed, and true once a mailed reset link was used', async () => {
    const account = await typedByAnAdministrator();
    expect(await idTokenClaims(account.email, STRONG)).toMatchObject({
      email: account.email,
      email_verified: false,
    });

    const deps = recoveryDeps(db());
    expect(
      (await reset(deps, await issueResetCode(deps, account.id), VerificationType.PasswordReset)).outcome,
    ).toBe('reset');
    expect(await idTokenClaims(account.email, NEW_PASSWORD)).toMatchObject({ email_verified: true });
  });

  it('turns true with an invitation, an unlock link or a confirmed new address, not with an expired-password code', async () => {
    const deps = recoveryDeps(db());
    // Made first, so every proof below comes after it: none may mark an account but its own.
    const bystander = await typedByAnAdministrator();
    const invited = await typedByAnAdministrator();
    await reset(
      deps,
      await issueResetCode(deps, invited.id, VerificationType.VerifyUser),
      VerificationType.VerifyUser,
    );
    const unlocked = await typedByAnAdministrator();
    const unlock = await issueResetCode(deps, unlocked.id, VerificationType.LockedAfterTooManyFailedAttempts);
    expect((await unlockAccount(deps, { code: unlock, ip: freshIp() })).outcome).toBe('unlocked');
    const moved = await typedByAnAdministrator();
    const change = await issueResetCode(deps, moved.id, VerificationType.EmailChanged, {
      newEmail: `moved-${serial}@example.com`,
    });
    expect((await confirmNewEmail(deps, { code: change, ip: freshIp(), language: 'en' })).outcome).toBe(
      'confirmed',
    );
    const expired = await typedByAnAdministrator();
    const renewal = await issueResetCode(deps, expired.id, VerificationType.PasswordExpired);
    expect((await reset(deps, renewal, VerificationType.PasswordExpired)).outcome).toBe('reset');

    const accounts = [invited, unlocked, moved, expired, bystander];
    expect(await Promise.all(accounts.map(({ id }) => verified(id)))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
