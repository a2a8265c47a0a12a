import { addUserResult, deleteUserResult, userView } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { findAccountById } from '../src/accounts/account-repository.ts';
import {
  ADMIN_CLIENT,
  adminEvents,
  signedInBrowser,
  signIn,
  signsInSilently,
  useAdminApi,
} from './admin-api-kit.ts';
import { apiClient, STRONG } from './recovery-kit.ts';
import { createAccount, registerTestClient } from './support/oidc-flow.ts';

const { service, api } = useAdminApi({ setUp: ({ db }) => registerTestClient(db) });
const app = () => service().app;
const db = () => service().db;

describe('POST /admin/api/users', () => {
  it('creates an account with a first password that then signs in (201), recorded with the client as actor', async () => {
    const created = await api('POST', '/users', {
      email: 'grace@example.com',
      name: 'Grace Hopper',
      password: STRONG,
    });
    expect(created.statusCode).toBe(201);
    const body = addUserResult.parse(created.json());
    expect(body).toMatchObject({
      hasPassword: true,
      invitation: 'not_needed',
      account: { email: 'grace@example.com' },
    });
    expect((await signIn(app(), 'grace@example.com', STRONG)).isAuthenticated).toBe(true);
    expect(await adminEvents(db(), 'user:add')).toContainEqual(
      expect.objectContaining({
        accountId: body.account.id,
        detail: { command: 'user:add', actor: ADMIN_CLIENT },
      }),
    );
    expect(JSON.stringify(await adminEvents(db(), 'user:add'))).not.toContain(STRONG);
  });

  it('without a password queues the invitation (VerifyUser mail) whose link sets the first one', async () => {
    const created = await api('POST', '/users', { email: 'invitee@example.com', name: 'Ivy Invitee' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ hasPassword: false, invitation: 'queued' });
    const [mail] = await service().mails('invitation', 'invitee@example.com');
    expect(mail?.textBody).toMatch(/\/resetPassword\/6\/[\w-]{43}/);
  });

  it('writes the invitation in the language given, and every later mail to the account too', async () => {
    const created = await api('POST', '/users', {
      email: 'greta@example.com',
      name: 'Greta Garbo',
      language: 'de',
    });
    expect(created.statusCode).toBe(201);
    const { account } = addUserResult.parse(created.json());
    const [invitation] = await service().mails('invitation', 'greta@example.com');
    expect(invitation?.subject).toContain('eingerichtet');
    expect(userView.parse((await api('GET', `/users/${account.id}`)).json()).language).toBe('de');
    // An admin's command has no language of its own: the account's decides.
    expect((await api('POST', `/users/${account.id}/invite`)).statusCode).toBe(200);
    const [, again] = await service().mails('invitation', 'greta@example.com');
    expect(again?.subject).toContain('eingerichtet');
  });

  it('refuses a language the texts are not written in, naming the field', async () => {
    const refused = await api('POST', '/users', {
      email: 'fr@example.com',
      name: 'Fran Cois',
      language: 'fr',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_input', field: 'language' });
  });

  it('answers 409 for an address that is taken, in any letter case', async () => {
    const first = await api('POST', '/users', {
      email: 'taken@example.com',
      name: 'Tak En',
      password: STRONG,
    });
    expect(first.statusCode).toBe(201);
    const again = await api('POST', '/users', {
      email: 'TAKEN@example.com',
      name: 'Grace Again',
      password: STRONG,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', field: 'email' });
  });

  it("starts an account unlocked on an address that failed sign-ins locked while it was nobody's", async () => {
    for (let attempt = 0; attempt < 5; attempt++)
      await signIn(app(), 'not-yet@example.com', 'Wrong-Password-1');
    expect((await signIn(app(), 'not-yet@example.com', STRONG)).verificationType).toBe(3);
    const created = await api('POST', '/users', {
      email: 'not-yet@example.com',
      name: 'Nat Yet',
      password: STRONG,
    });
    expect(created.statusCode).toBe(201);
    expect((await signIn(app(), 'not-yet@example.com', STRONG)).isAuthenticated).toBe(true);
  });

  it('answers 409 for a first password on a domain that signs in upstream, creating nothing; without one the account is added', async () => {
    const provider = await api('POST', '/upstream-providers', {
      name: 'Bound Ltd',
      issuer: 'https://login.bound.example',
      clientId: 'keycard',
      clientSecret: 'upstream-secret-value',
      domains: ['bound.example'],
    });
    expect(provider.statusCode).toBe(201);
    const refused = await api('POST', '/users', {
      email: 'ben@bound.example',
      name: 'Ben Bound',
      password: STRONG,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'conflict', field: 'password' });
    expect((await api('GET', '/users?email=ben%40bound.example')).statusCode).toBe(404);
    const added = await api('POST', '/users', { email: 'ben@bound.example', name: 'Ben Bound' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ hasPassword: false, invitation: 'signs_in_upstream' });
  });

  it('refuses a field sent to a call that takes no query or no body, naming it, instead of ignoring it', async () => {
    const account = await api('POST', '/users', { email: 'nothing-more@example.com', name: 'Nothing More' });
    const id = account.json<{ account: { id: string } }>().account.id;
    const forced = await api('POST', `/users/${id}/disable`, { force: true });
    expect(forced.statusCode).toBe(400);
    expect(forced.json()).toMatchObject({ code: 'invalid_input', field: 'force' });
    const queried = await api('GET', '/clients?admin=1');
    expect(queried.statusCode).toBe(400);
    expect(queried.json()).toMatchObject({ code: 'invalid_input', field: 'admin' });
    const rotated = await api('POST', '/signing-keys/rotate', { kid: 'mine' });
    expect(rotated.json()).toMatchObject({ code: 'invalid_input', field: 'kid' });
    // Nothing happened: the account is still enabled.
    expect((await api('GET', `/users/${id}`)).json()).toMatchObject({ disabled: false });
    // An empty body or none at all is what such a call takes.
    expect((await api('POST', `/users/${id}/disable`, {})).statusCode).toBe(200);
    expect((await api('POST', `/users/${id}/enable`)).statusCode).toBe(200);
  });

  it('answers 400 invalid_input naming the field for a bad address, a weak password or an unknown field', async () => {
    const badEmail = await api('POST', '/users', { email: 'not-an-address', name: 'X' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ code: 'invalid_input', field: 'email' });
    const weak = await api('POST', '/users', { email: 'weak@example.com', name: 'Weak', password: 'short' });
    expect(weak.json()).toMatchObject({ code: 'invalid_input', field: 'password' });
    expect(weak.body).not.toContain('short');
    const guessable = await api('POST', '/users', {
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
      password: 'GraceHopper#1906',
    });
    expect(guessable.statusCode).toBe(400);
    expect(guessable.json()).toMatchObject({ code: 'invalid_input', field: 'password' });
    expect(guessable.json().message).toContain('too easy to guess');
    const extra = await api('POST', '/users', { email: 'extra@example.com', name: 'Extra', role: 'root' });
    expect(extra.json()).toMatchObject({ code: 'invalid_input', field: 'role' });
    const noName = await api('POST', '/users', { email: 'noname@example.com' });
    expect(noName.json()).toMatchObject({ code: 'invalid_input', field: 'name' });
  });
});

describe('GET /admin/api/users/{id} and ?email=', () => {
  it('reads an account by id and finds it by e-mail, showing its state and no secret', async () => {
    const account = await createAccount(db(), 'reader@example.com', STRONG, 'Rita Reader');
    const byId = await api('GET', `/users/${account.id}`);
    expect(byId.statusCode).toBe(200);
    expect(userView.parse(byId.json())).toMatchObject({
      id: account.id,
      email: 'reader@example.com',
      displayName: 'Rita Reader',
      hasPassword: true,
      mustChangePassword: false,
      disabled: false,
      // Its address only typed by an administrator (email-verified.test.ts).
      emailVerified: false,
      external: false,
      // No language of its own: each mail in the language of the request that sends it.
      language: null,
    });
    expect(byId.body).not.toMatch(/argon2|hash/i);
    const byEmail = await api('GET', `/users?email=${encodeURIComponent(' Reader@Example.com ')}`);
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.json()).toEqual(byId.json());
  });

  it('answers 404 for an unknown id or address and 400 for a malformed one', async () => {
    const unknownId = await api('GET', '/users/00000000-0000-4000-8000-000000000000');
    expect(unknownId.statusCode).toBe(404);
    expect(unknownId.json()).toMatchObject({ code: 'not_found' });
    expect((await api('GET', '/users?email=nobody@example.com')).statusCode).toBe(404);
    const badId = await api('GET', '/users/42');
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ code: 'invalid_input', field: 'id' });
    const noEmail = await api('GET', '/users');
    expect(noEmail.json()).toMatchObject({ code: 'invalid_input', field: 'email' });
  });

  it.each([
    ['DELETE', '/users/42'],
    ['POST', '/users/42/invite'],
    ['POST', '/users/42/expire-password'],
    ['POST', '/users/42/unlock'],
    ['POST', '/users/42/disable'],
    ['POST', '/users/42/enable'],
    ['GET', '/upstream-providers/42'],
  ] as const)(
    '%s %s answers 400 naming the malformed id, and 404 for an unknown one',
    async (method, path) => {
      const malformed = await api(method, path);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({
        code: 'invalid_input',
        field: path.startsWith('/users') ? 'id' : 'providerId',
      });
      const unknown = await api(method, path.replace('42', '00000000-0000-4000-8000-000000000000'));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 'not_found' });
    },
  );
});

describe('POST /admin/api/users/{id}/language', () => {
  it("sets the language of the account's mail, reports a repeat as unchanged, and clears it with null", async () => {
    const account = await createAccount(db(), 'lang@example.com', STRONG, 'Lang Uage');
    const set = await api('POST', `/users/${account.id}/language`, { language: 'de' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ account: { id: account.id }, changed: true });
    expect((await api('POST', `/users/${account.id}/language`, { language: 'de' })).json()).toMatchObject({
      changed: false,
    });
    expect(await adminEvents(db(), 'user:set-language')).toEqual([
      expect.objectContaining({
        accountId: account.id,
        detail: { command: 'user:set-language', language: 'de', actor: ADMIN_CLIENT },
      }),
    ]);
    // A password an admin expires is told in it.
    expect((await api('POST', `/users/${account.id}/expire-password`)).statusCode).toBe(200);
    const [notice] = await service().mails('password_expired', 'lang@example.com');
    expect(notice?.subject).toMatch(/Passwort/);
    // And so is a reset the person asks for from a browser that asks for English.
    const forgot = await (await apiClient(app())).post(
      '/api/forgotpassword',
      { email: 'lang@example.com', returnUrl: null, locationSearch: '' },
      { headers: { 'accept-language': 'en-GB,en;q=0.9' } },
    );
    expect(forgot.statusCode).toBe(200);
    const [reset] = await service().mails('password_reset', 'lang@example.com');
    expect(reset?.subject).toContain('zurücksetzen');

    const cleared = await api('POST', `/users/${account.id}/language`, { language: null });
    expect(cleared.json()).toMatchObject({ changed: true });
    expect(userView.parse((await api('GET', `/users/${account.id}`)).json()).language).toBeNull();
  });

  it('answers 404 for no account and 400 for a language the texts are not written in', async () => {
    const account = await createAccount(db(), 'lang-bad@example.com', STRONG);
    const unknown = await api('POST', '/users/00000000-0000-4000-8000-000000000000/language', {
      language: 'de',
    });
    expect(unknown.statusCode).toBe(404);
    const refused = await api('POST', `/users/${account.id}/language`, { language: 'fr' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_input', field: 'language' });
    const missing = await api('POST', `/users/${account.id}/language`, {});
    expect(missing.json()).toMatchObject({ code: 'invalid_input', field: 'language' });
  });
});

describe('DELETE /admin/api/users/{id}', () => {
  it('ends the sessions of the deleted account: its browser no longer signs in silently', async () => {
    const account = await createAccount(db(), 'sso-deleted@example.com', STRONG, 'Del Session');
    const browser = await signedInBrowser(app(), account.email, STRONG);
    expect(await signsInSilently(browser)).toBe(true);
    expect((await api('DELETE', `/users/${account.id}`)).statusCode).toBe(200);
    expect(await signsInSilently(browser)).toBe(false);
  });

  it('deletes the account, which can then neither be read nor sign in, and records who did it', async () => {
    const account = await createAccount(db(), 'leaver@example.com', STRONG, 'Leo Leaver');
    const deleted = await api('DELETE', `/users/${account.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleteUserResult.parse(deleted.json()).account).toEqual({
      id: account.id,
      email: 'leaver@example.com',
      displayName: 'Leo Leaver',
    });
    expect(await findAccountById(db(), account.id)).toBeNull();
    expect((await api('GET', `/users/${account.id}`)).statusCode).toBe(404);
    expect((await signIn(app(), 'leaver@example.com', STRONG)).isAuthenticated).toBe(false);
    expect(await adminEvents(db(), 'user:delete')).toContainEqual(
      expect.objectContaining({
        accountId: account.id,
        detail: { command: 'user:delete', actor: ADMIN_CLIENT },
      }),
    );
    const again = await api('DELETE', `/users/${account.id}`);
    expect(again.statusCode).toBe(404);
  });

  it('deletes the mail queued about the account, to its new address too, and leaves the mail of others', async () => {
    const leaving = await createAccount(db(), 'mail-leaver@example.com', STRONG, 'Mo Leaver');
    const staying = await createAccount(db(), 'mail-stayer@example.com', STRONG, 'Sam Stayer');
    for (const [account, newEmail] of [
      [leaving, 'mail-leaver@new.example'],
      [staying, 'mail-stayer@new.example'],
    ] as const) {
      expect((await api('POST', `/users/${account.id}/change-email`, { newEmail })).statusCode).toBe(200);
    }
    const queued = async () => (await service().mails()).map((mail) => mail.recipient);
    expect(await queued()).toEqual(
      expect.arrayContaining([
        'mail-leaver@new.example',
        'mail-leaver@example.com',
        'mail-stayer@new.example',
        'mail-stayer@example.com',
      ]),
    );
    expect((await api('DELETE', `/users/${leaving.id}`)).statusCode).toBe(200);
    const left = await queued();
    expect(left).not.toContain('mail-leaver@new.example');
    expect(left).not.toContain('mail-leaver@example.com');
    expect(left).toEqual(expect.arrayContaining(['mail-stayer@new.example', 'mail-stayer@example.com']));
  });

  it('frees the address for a new account', async () => {
    const account = await createAccount(db(), 'reuse@example.com', STRONG);
    await api('DELETE', `/users/${account.id}`);
    const created = await api('POST', '/users', {
      email: 'reuse@example.com',
      name: 'New Owner',
      password: STRONG,
    });
    expect(created.statusCode).toBe(201);
  });
});
