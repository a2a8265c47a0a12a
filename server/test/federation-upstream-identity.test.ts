import { randomUUID } from 'node:crypto';
import { VerificationType } from '@keycard/contract';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  bindExternalIdentity,
  findAccountByEmail,
  linkExternalIdentity,
  setDisabled,
} from '../src/accounts/account-repository.ts';
import { findLiveCode, issueCode } from '../src/codes/codes.ts';
import { databaseClock } from '../src/store/clock.ts';
import { isUniqueViolation } from '../src/store/sql-state.ts';
import { accounts, auditEvents } from '../src/store/tables/index.ts';
import {
  BOUND_DOMAIN,
  expectErrorPage,
  expectNotSignedIn,
  lastFederationAudit,
  startRegisteredUpstream,
  throughUpstream,
} from './federation-kit.ts';
import { testConfig } from './support/app.ts';
import {
  claimsOf,
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';
import type { UpstreamIdp, UpstreamPerson } from './support/upstream-idp.ts';

let idp: UpstreamIdp;
let providerId: string;

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    ({ idp, providerId } = await startRegisteredUpstream(db));
  },
  tearDown: () => idp.close(),
});
const app = () => service().app;
const db = () => service().db;

let serial = 0;

/** A person of the bound domain whom no other test signs in, known to the upstream provider. */
function newcomer(name: string): UpstreamPerson {
  serial += 1;
  const person = {
    sub: `sub-${name}-${serial}`,
    email: `${name}-${serial}@${BOUND_DOMAIN}`,
    emailVerified: true,
    name: `${name} Upstream`,
    password: `${name}-upstream-pw`,
  };
  idp.setPerson(person);
  return person;
}

/** The organisation changes the person's address upstream; the subject stays. */
function renamed(who: UpstreamPerson, email: string): UpstreamPerson {
  const person = { ...who, email };
  idp.setPerson(person);
  return person;
}

/** A federated sign-in that reaches the relying party; answers the ID token's claims. */
async function signIn(who: UpstreamPerson) {
  const { browser, auth, back } = await throughUpstream(app(), providerId, who);
  expect(back.headers.location).toBe(`http://localhost:3000${auth.returnUrl}`);
  const tokens = await redeemCode(app(), await resumeToCode(browser, auth.returnUrl), auth.verifier);
  return claimsOf(tokens.id_token);
}

/**
 * Links mailed to the account (a new address's confirmation, an unlock), issued now; answers whether
 * each still works.
 */
async function mailedLinks(accountId: string, name: string) {
  const clock = databaseClock(db());
  const mailed = [VerificationType.EmailChanged, VerificationType.LockedAfterTooManyFailedAttempts];
  const codes = await Promise.all(
    mailed.map((type) =>
      issueCode(db(), clock, testConfig().codeLifetimes, {
        accountId,
        type,
        payload: { newEmail: `${name}.elsewhere-${serial}@example.com` },
      }),
    ),
  );
  return () => Promise.all(codes.map((code) => findLiveCode(db(), clock, code, mailed).then(Boolean)));
}

function accountsOf(who: UpstreamPerson) {
  return db()
    .select()
    .from(accounts)
    .where(and(eq(accounts.externalIdpId, providerId), eq(accounts.externalSubject, who.sub)));
}

function emailChanges(accountId: string) {
  return db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, 'email_change'), eq(auditEvents.accountId, accountId)));
}

describe('the upstream identity, not the address, finds the account (OpenID Connect Core §5.7)', () => {
  it('signs a person whose address changed upstream into the same account, which takes the new address', async () => {
    const alice = newcomer('alice');
    const first = await signIn(alice);
    const later = renamed(alice, `alice.j-${serial}@${BOUND_DOMAIN}`);

    const claims = await signIn(later);
    // The provider vouches for both addresses: the first sign-in's, and the new one.
    expect(first).toMatchObject({ email_verified: true });
    expect(claims).toMatchObject({ sub: first.sub, email: later.email, email_verified: true });
    const bound = await accountsOf(alice);
    expect(bound).toHaveLength(1);
    expect(bound[0]).toMatchObject({ id: first.sub, email: later.email, disabledAt: null });
    expect(await findAccountByEmail(db(), alice.email)).toBeNull();
    expect(await lastFederationAudit(db())).toMatchObject({
      outcome: 'success',
      accountId: first.sub,
      detail: { step: 'callback', account: 'returning' },
    });
    expect(await emailChanges(String(first.sub))).toEqual([
      expect.objectContaining({ outcome: 'success', detail: { step: 'federation', providerId } }),
    ]);
    // The next sign-in with the same address changes nothing and records no change.
    await signIn(later);
    expect(await emailChanges(String(first.sub))).toHaveLength(1);
  });

  it('stops the links mailed to the old address when the account takes the new one', async () => {
    const erin = newcomer('erin');
    const accountId = String((await signIn(erin)).sub);
    const live = await mailedLinks(accountId, 'erin');
    expect(await live()).toEqual([true, true]);
    await signIn(renamed(erin, `erin.m-${serial}@${BOUND_DOMAIN}`));
    expect(await live()).toEqual([false, false]);
  });

  it('takes an address differing only in letter case as no change: nothing recorded, the mailed links still work', async () => {
    const cas = newcomer('cas');
    const accountId = String((await signIn(cas)).sub);
    const live = await mailedLinks(accountId, 'cas');
    // cas-N@contoso.example sent as Cas-N@Contoso.Example: the same identifier (DESIGN §2).
    const shouted = renamed(cas, `C${cas.email.slice(1, cas.email.indexOf('@'))}@Contoso.Example`);
    expect(shouted.email).not.toBe(cas.email);

    expect(await signIn(shouted)).toMatchObject({ sub: accountId, email: cas.email });
    expect(await accountsOf(cas)).toEqual([expect.objectContaining({ id: accountId, email: cas.email })]);
    expect(await emailChanges(accountId)).toEqual([]);
    expect(await live()).toEqual([true, true]);
  });

  it('keeps refusing a disabled account whose address changed upstream, and provisions no other', async () => {
    const dora = newcomer('dora');
    const { sub: accountId } = await signIn(dora);
    await setDisabled(db(), String(accountId), true);
    const later = renamed(dora, `dora.k-${serial}@${BOUND_DOMAIN}`);

    const { browser, auth, back } = await throughUpstream(app(), providerId, later);
    expectErrorPage(back);
    expect(await lastFederationAudit(db())).toMatchObject({
      outcome: 'refused',
      detail: { step: 'callback', reason: 'account_disabled' },
    });
    await expectNotSignedIn(browser, auth.returnUrl);
    expect(await findAccountByEmail(db(), later.email)).toBeNull();
    const bound = await accountsOf(dora);
    expect(bound).toHaveLength(1);
    expect(bound[0]).toMatchObject({ id: accountId, email: dora.email, disabledAt: expect.any(Date) });
  });

  it('keeps the linked account’s address when another account holds the new one, and signs it in', async () => {
    const carl = newcomer('carl');
    const { sub: accountId } = await signIn(carl);
    const holder = await createAccount(db(), `taken-${serial}@${BOUND_DOMAIN}`, null, 'Tom Holder');
    // The same address in another letter case is the same identifier (DESIGN §2).
    const later = renamed(carl, holder.email.toUpperCase());

    expect(await signIn(later)).toMatchObject({ sub: accountId, email: carl.email });
    expect(await accountsOf(carl)).toEqual([expect.objectContaining({ id: accountId, email: carl.email })]);
    expect(await findAccountByEmail(db(), holder.email)).toMatchObject({
      id: holder.id,
      externalIdpId: null,
      externalSubject: null,
    });
    expect(await emailChanges(String(accountId))).toEqual([
      expect.objectContaining({
        outcome: 'refused',
        detail: { step: 'federation', providerId, reason: 'address_taken' },
      }),
    ]);
  });

  it('keeps the address, and signs in, when an account takes the new one at the very moment of the change', async () => {
    const dana = newcomer('dana');
    const { sub: accountId } = await signIn(dana);
    const later = renamed(dana, `dana.r-${serial}@${BOUND_DOMAIN}`);
    // Between the change's check that the address is free and its write, another account takes it.
    await db().execute(
      sql.raw(`create function keycard_test_take_address() returns trigger language plpgsql as $$
        begin
          if new.email_normalized <> old.email_normalized then
            insert into account (email, email_normalized, display_name, first_name)
              values (new.email, new.email_normalized, 'Quick Taker', 'Quick');
          end if;
          return new;
        end $$`),
    );
    await db().execute(
      sql.raw(`create trigger keycard_test_take_address before update on account
        for each row execute function keycard_test_take_address()`),
    );
    try {
      expect(await signIn(later)).toMatchObject({ sub: accountId, email: dana.email });
    } finally {
      await db().execute(sql.raw('drop trigger keycard_test_take_address on account'));
      await db().execute(sql.raw('drop function keycard_test_take_address()'));
    }
    expect(await accountsOf(dana)).toEqual([expect.objectContaining({ id: accountId, email: dana.email })]);
    expect(await emailChanges(String(accountId))).toEqual([
      expect.objectContaining({
        outcome: 'refused',
        detail: expect.objectContaining({ reason: 'address_taken' }),
      }),
    ]);
  });

  it('refuses, keeping nothing, a first sign-in whose identity gets bound to another account at that very moment', async () => {
    const erik = newcomer('erik');
    // Between the lookup by identity and the binding of the account just provisioned, a parallel
    // callback binds the same identity to another account (a trigger stands in for it).
    await db().execute(
      sql.raw(`create function keycard_test_bind_first() returns trigger language plpgsql as $$
        begin
          if new.external_subject = '${erik.sub}' and old.external_subject is null then
            insert into account (email, email_normalized, display_name, first_name, external_idp_id, external_subject)
              values ('first-${serial}@elsewhere.example', 'first-${serial}@elsewhere.example', 'First', 'First',
                new.external_idp_id, new.external_subject);
          end if;
          return new;
        end $$`),
    );
    await db().execute(
      sql.raw(`create trigger keycard_test_bind_first before update on account
        for each row execute function keycard_test_bind_first()`),
    );
    try {
      const { browser, auth, back } = await throughUpstream(app(), providerId, erik);
      expectErrorPage(back);
      expect(await lastFederationAudit(db())).toMatchObject({
        outcome: 'refused',
        detail: { step: 'callback', reason: 'linked_elsewhere' },
      });
      await expectNotSignedIn(browser, auth.returnUrl);
    } finally {
      await db().execute(sql.raw('drop trigger keycard_test_bind_first on account'));
      await db().execute(sql.raw('drop function keycard_test_bind_first()'));
    }
    // Nothing of the attempt was kept (the stand-in's row went with the same transaction), so the
    // next sign-in starts afresh and provisions the one account of the identity.
    expect(await findAccountByEmail(db(), erik.email)).toBeNull();
    expect(await accountsOf(erik)).toEqual([]);
    expect(await signIn(erik)).toMatchObject({ email: erik.email });
    expect(await accountsOf(erik)).toHaveLength(1);
  });

  it('has the database refuse a second account bound to the same upstream identity', async () => {
    const identity = { providerId, subject: `sub-unique-${serial}` };
    const first = await createAccount(db(), `first-${serial}@unbound.example`, null, 'First Bound');
    const second = await createAccount(db(), `second-${serial}@unbound.example`, null, 'Second Bound');
    await bindExternalIdentity(db(), first.id, identity);

    for (const attempt of [
      () => bindExternalIdentity(db(), second.id, identity),
      () => linkExternalIdentity(db(), second.id, identity),
    ]) {
      const refused = await attempt().then(
        () => null,
        (error: unknown) => error,
      );
      expect(isUniqueViolation(refused)).toBe(true);
    }
    // The same subject at another provider is another person; a provider without a subject yet binds no one.
    await bindExternalIdentity(db(), second.id, { ...identity, providerId: randomUUID() });
    for (const account of [first, second]) {
      await db()
        .update(accounts)
        .set({ externalIdpId: providerId, externalSubject: null })
        .where(eq(accounts.id, account.id));
    }
  });
});
