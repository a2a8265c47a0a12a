import {
  accountChangeResult,
  changeEmailResult,
  inviteResult,
  unlockResult,
  verifyNewEmailResponse,
} from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { findAccountById, setMustChangePassword } from '../src/accounts/account-repository.ts';
import {
  ADMIN_CLIENT,
  adminEvents,
  adminToken,
  attemptSignIn,
  signedInBrowser,
  signIn,
  signsInSilently,
  useAdminApi,
} from './admin-api-kit.ts';
import { apiClient, codeOf, linkIn, STRONG } from './recovery-kit.ts';
import { linkToUpstreamProvider } from './support/linked-account.ts';
import { createAccount, registerTestClient } from './support/oidc-flow.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const { service, api } = useAdminApi({ setUp: ({ db }) => registerTestClient(db) });
const app = () => service().app;
const db = () => service().db;

describe('POST /admin/api/users/{id}/change-email', () => {
  it('mails a link to the new address whose confirmation makes the account sign in with it', async () => {
    const account = await createAccount(db(), 'old-address@example.com', STRONG, 'Mia Mover');
    const requested = await api('POST', `/users/${account.id}/change-email`, {
      newEmail: 'new-address@example.com',
    });
    expect(requested.statusCode).toBe(200);
    expect(changeEmailResult.parse(requested.json())).toMatchObject({
      account: { id: account.id, email: 'old-address@example.com' },
      newEmail: 'new-address@example.com',
      validHours: 72,
    });
    expect(await service().mails('email_change_notice', 'old-address@example.com')).toHaveLength(1);
    const [confirmMail] = await service().mails('email_change_confirm', 'new-address@example.com');
    const code = codeOf(linkIn(confirmMail?.textBody ?? ''));

    const client = await apiClient(app());
    const confirmed = await client.post('/api/VerifyNewEmail', { verificationCode: code, redirectUrl: null });
    expect(confirmed.statusCode).toBe(200);
    expect(verifyNewEmailResponse.parse(confirmed.json())).toMatchObject({
      success: true,
      userFirstName: 'Mia',
    });

    expect((await signIn(app(), 'new-address@example.com', STRONG)).isAuthenticated).toBe(true);
    expect((await signIn(app(), 'old-address@example.com', STRONG)).isAuthenticated).toBe(false);
    expect(await adminEvents(db(), 'user:change-email')).toContainEqual(
      expect.objectContaining({
        accountId: account.id,
        detail: { command: 'user:change-email', actor: ADMIN_CLIENT },
      }),
    );
  });

  it("the new address comes without the lock failed sign-ins put on it while it was nobody's", async () => {
    const account = await createAccount(db(), 'before-move@example.com', STRONG);
    for (let attempt = 0; attempt < 5; attempt++)
      await signIn(app(), 'after-move@example.com', 'Wrong-Password-1');
    expect((await signIn(app(), 'after-move@example.com', STRONG)).verificationType).toBe(3);
    await api('POST', `/users/${account.id}/change-email`, { newEmail: 'after-move@example.com' });
    const [confirmMail] = await service().mails('email_change_confirm', 'after-move@example.com');
    const client = await apiClient(app());
    const confirmed = await client.post('/api/VerifyNewEmail', {
      verificationCode: codeOf(linkIn(confirmMail?.textBody ?? '')),
      redirectUrl: null,
    });
    expect(confirmed.json()).toMatchObject({ success: true });
    expect((await signIn(app(), 'after-move@example.com', STRONG)).isAuthenticated).toBe(true);
  });

  it('answers 409 for a disabled account, mailing neither address', async () => {
    const account = await createAccount(db(), 'frozen-mover@example.com', STRONG);
    expect((await api('POST', `/users/${account.id}/disable`)).statusCode).toBe(200);
    const refused = await api('POST', `/users/${account.id}/change-email`, {
      newEmail: 'thawed-mover@example.com',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'conflict' });
    expect(await service().mails('email_change_notice', 'frozen-mover@example.com')).toHaveLength(0);
    expect(await service().mails('email_change_confirm', 'thawed-mover@example.com')).toHaveLength(0);
    expect(await adminEvents(db(), 'user:change-email')).not.toContainEqual(
      expect.objectContaining({ accountId: account.id }),
    );
  });

  it("answers 409 for an account its organisation's provider signs in, whose address the provider keeps", async () => {
    const account = await createAccount(db(), 'linked-mover@corp.example', STRONG);
    await linkToUpstreamProvider(db(), account.id);
    const refused = await api('POST', `/users/${account.id}/change-email`, {
      newEmail: 'linked-mover@other.example',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining("signs in through its organisation's identity provider"),
    });
    expect(await service().mails('email_change_notice', 'linked-mover@corp.example')).toHaveLength(0);
    expect(await service().mails('email_change_confirm', 'linked-mover@other.example')).toHaveLength(0);
    expect(await adminEvents(db(), 'user:change-email')).not.toContainEqual(
      expect.objectContaining({ accountId: account.id }),
    );
  });

  it('answers 409 for an address another account has, 400 for the same or a bad one, 404 for no account', async () => {
    const account = await createAccount(db(), 'stays@example.com', STRONG);
    await createAccount(db(), 'taken@example.com', STRONG);
    const taken = await api('POST', `/users/${account.id}/change-email`, { newEmail: 'Taken@example.com' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'conflict', field: 'newEmail' });
    const same = await api('POST', `/users/${account.id}/change-email`, { newEmail: 'STAYS@example.com' });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ code: 'invalid_input', field: 'newEmail' });
    const bad = await api('POST', `/users/${account.id}/change-email`, { newEmail: 'nope' });
    expect(bad.json()).toMatchObject({ code: 'invalid_input', field: 'newEmail' });
    const missing = await api('POST', `/users/${account.id}/change-email`, {});
    expect(missing.json()).toMatchObject({ code: 'invalid_input', field: 'newEmail' });
    expect(
      (await api('POST', `/users/${UNKNOWN}/change-email`, { newEmail: 'x@example.com' })).statusCode,
    ).toBe(404);
    expect(await service().mails('email_change_notice', 'stays@example.com')).toHaveLength(0);
  });
});

describe('POST /admin/api/users/{id}/invite', () => {
  it('queues a new invitation for an account without a password', async () => {
    const account = await createAccount(db(), 'later@example.com', null, 'Lara Later');
    const invited = await api('POST', `/users/${account.id}/invite`);
    expect(invited.statusCode).toBe(200);
    expect(inviteResult.parse(invited.json())).toMatchObject({
      account: { id: account.id },
      validHours: 168,
    });
    expect(await service().mails('invitation', 'later@example.com')).toHaveLength(1);
    expect(await adminEvents(db(), 'user:invite')).toContainEqual(
      expect.objectContaining({
        accountId: account.id,
        detail: { command: 'user:invite', actor: ADMIN_CLIENT },
      }),
    );
  });

  it('answers 409 for an account that has a password and 404 for no account', async () => {
    const account = await createAccount(db(), 'has-password@example.com', STRONG);
    const refused = await api('POST', `/users/${account.id}/invite`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'conflict' });
    expect(await service().mails('invitation', 'has-password@example.com')).toHaveLength(0);
    expect((await api('POST', `/users/${UNKNOWN}/invite`)).statusCode).toBe(404);
  });
});

describe('POST /admin/api/users/{id}/expire-password', () => {
  it('makes the next correct sign-in ask for a new password, once', async () => {
    const account = await createAccount(db(), 'expiring@example.com', STRONG);
    const expired = await api('POST', `/users/${account.id}/expire-password`);
    expect(expired.statusCode).toBe(200);
    expect(accountChangeResult.parse(expired.json())).toMatchObject({ changed: true });
    expect(await signIn(app(), 'expiring@example.com', STRONG)).toMatchObject({
      isAuthenticated: false,
      verificationType: 2,
    });
    expect((await api('POST', `/users/${account.id}/expire-password`)).json()).toMatchObject({
      changed: false,
    });
    // Each order is recorded; the owner is told once.
    const ofAccount = (await adminEvents(db(), 'user:expire-password')).filter(
      (event) => event.accountId === account.id,
    );
    expect(ofAccount).toHaveLength(2);
    expect(await service().mails('password_expired', 'expiring@example.com')).toHaveLength(1);
    expect((await api('POST', `/users/${UNKNOWN}/expire-password`)).statusCode).toBe(404);
  });

  it('told twice at the same moment (a client retrying), tells the owner once and reports one change', async () => {
    const account = await createAccount(db(), 'expiring-twice@example.com', STRONG);
    const answers = await Promise.all([
      api('POST', `/users/${account.id}/expire-password`),
      api('POST', `/users/${account.id}/expire-password`),
    ]);
    expect(answers.map((answer) => accountChangeResult.parse(answer.json()).changed).sort()).toEqual([
      false,
      true,
    ]);
    expect(await service().mails('password_expired', 'expiring-twice@example.com')).toHaveLength(1);
  });

  it('run again on an expired password, still ends a session the account has (one an earlier release left open)', async () => {
    const account = await createAccount(db(), 'left-open@example.com', STRONG);
    const browser = await signedInBrowser(app(), account.email, STRONG);
    // What an earlier release's expire-password did: the flag, and nothing else.
    await setMustChangePassword(db(), account.id);
    expect(await signsInSilently(browser)).toBe(true);
    const again = await api('POST', `/users/${account.id}/expire-password`);
    expect(again.json()).toMatchObject({ changed: false });
    expect(await signsInSilently(browser)).toBe(false);
    expect(await service().mails('password_expired', 'left-open@example.com')).toHaveLength(0);
  });

  it('ends the sessions the account has: a browser signed in before must sign in again and change it', async () => {
    const account = await createAccount(db(), 'sso-expired@example.com', STRONG);
    const browser = await signedInBrowser(app(), account.email, STRONG);
    expect(await signsInSilently(browser)).toBe(true);
    expect((await api('POST', `/users/${account.id}/expire-password`)).statusCode).toBe(200);
    expect(await signsInSilently(browser)).toBe(false);
  });

  it('also stops a sign-in the old password finished and the browser had not resumed yet', async () => {
    const account = await createAccount(db(), 'pending-resume@example.com', STRONG);
    const { browser, auth, body } = await attemptSignIn(app(), account.email, STRONG);
    expect(body.isAuthenticated).toBe(true);
    expect((await api('POST', `/users/${account.id}/expire-password`)).statusCode).toBe(200);
    // The resume asks for a sign-in again, which now answers "password expired".
    const resumed = await browser.get(auth.returnUrl);
    expect(resumed.statusCode).toBe(303);
    expect(String(resumed.headers.location)).toMatch(/^\/\?ReturnUrl=/);
    expect(await signsInSilently(browser)).toBe(false);
    expect(await signIn(app(), account.email, STRONG)).toMatchObject({ verificationType: 2 });
  });
});

describe('POST /admin/api/users/{id}/unlock', () => {
  it('clears a lock that failed sign-ins set, so the right password signs in again', async () => {
    const account = await createAccount(db(), 'locked@example.com', STRONG);
    for (let attempt = 0; attempt < 5; attempt++)
      await signIn(app(), 'locked@example.com', 'Wrong-Password-1');
    expect((await signIn(app(), 'locked@example.com', STRONG)).verificationType).toBe(3);
    const unlocked = await api('POST', `/users/${account.id}/unlock`);
    expect(unlocked.statusCode).toBe(200);
    expect(unlockResult.parse(unlocked.json())).toMatchObject({ wasLocked: true });
    expect((await signIn(app(), 'locked@example.com', STRONG)).isAuthenticated).toBe(true);
    expect(await adminEvents(db(), 'user:unlock')).toContainEqual(
      expect.objectContaining({
        accountId: account.id,
        detail: { command: 'user:unlock', actor: ADMIN_CLIENT },
      }),
    );
    expect((await api('POST', `/users/${UNKNOWN}/unlock`)).statusCode).toBe(404);
  });
});

describe('actions without a body', () => {
  it('take an empty body sent as application/json, as many HTTP clients send every call', async () => {
    const account = await createAccount(db(), 'empty-body@example.com', STRONG, 'Eve Empty');
    const { access_token } = await adminToken(app());
    const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    const unlocked = await app().inject({
      method: 'POST',
      url: `/admin/api/users/${account.id}/unlock`,
      headers,
      payload: '',
    });
    expect(unlocked.statusCode).toBe(200);
    expect(unlockResult.parse(unlocked.json())).toMatchObject({
      account: { id: account.id },
      wasLocked: false,
    });
    // A call that needs a body still refuses an empty one, naming what is missing.
    const refused = await app().inject({
      method: 'POST',
      url: `/admin/api/users/${account.id}/change-email`,
      headers,
      payload: '',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_input', field: 'newEmail' });
  });
});

describe('POST /admin/api/users/{id}/disable and /enable', () => {
  it('stops and restores sign-in, and reports a repeat as unchanged', async () => {
    const account = await createAccount(db(), 'toggled@example.com', STRONG);
    expect((await api('POST', `/users/${account.id}/disable`)).json()).toMatchObject({ changed: true });
    expect((await findAccountById(db(), account.id))?.disabledAt).not.toBeNull();
    expect((await signIn(app(), 'toggled@example.com', STRONG)).isAuthenticated).toBe(false);
    expect((await api('GET', `/users/${account.id}`)).json()).toMatchObject({ disabled: true });
    expect((await api('POST', `/users/${account.id}/disable`)).json()).toMatchObject({ changed: false });

    expect((await api('POST', `/users/${account.id}/enable`)).json()).toMatchObject({ changed: true });
    expect((await signIn(app(), 'toggled@example.com', STRONG)).isAuthenticated).toBe(true);
    expect((await api('POST', `/users/${account.id}/enable`)).json()).toMatchObject({ changed: false });
    const ofAccount = (events: { accountId: string | null }[]) =>
      events.filter((event) => event.accountId === account.id);
    expect(ofAccount(await adminEvents(db(), 'user:disable'))).toHaveLength(1);
    expect(ofAccount(await adminEvents(db(), 'user:enable'))).toHaveLength(1);
    expect((await api('POST', `/users/${UNKNOWN}/disable`)).statusCode).toBe(404);
    expect((await api('POST', `/users/${UNKNOWN}/enable`)).statusCode).toBe(404);
  });

  it('also stops a session the account already has from signing it in again', async () => {
    const account = await createAccount(db(), 'sso-disabled@example.com', STRONG);
    const browser = await signedInBrowser(app(), account.email, STRONG);
    expect(await signsInSilently(browser)).toBe(true);
    expect((await api('POST', `/users/${account.id}/disable`)).statusCode).toBe(200);
    expect(await signsInSilently(browser)).toBe(false);
  });

  it('stops a sign-in that finished before a disable, even once the account is enabled again before its resume', async () => {
    const account = await createAccount(db(), 'disabled-meanwhile@example.com', STRONG);
    const { browser, auth, body } = await attemptSignIn(app(), account.email, STRONG);
    expect(body.isAuthenticated).toBe(true);
    // Disabled (say, a stolen password noticed) and enabled again: the password never changed.
    expect((await api('POST', `/users/${account.id}/disable`)).statusCode).toBe(200);
    expect((await api('POST', `/users/${account.id}/enable`)).statusCode).toBe(200);
    const resumed = await browser.get(auth.returnUrl);
    expect(resumed.statusCode).toBe(303);
    expect(String(resumed.headers.location)).toMatch(/^\/\?ReturnUrl=/);
    expect(await signsInSilently(browser)).toBe(false);
    // A sign-in made after the enable resumes as usual.
    expect(await signsInSilently(await signedInBrowser(app(), account.email, STRONG))).toBe(true);
  });
});
