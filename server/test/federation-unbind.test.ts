import { checkUsernameResponse } from '@keycard/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findAccountByEmail } from '../src/accounts/account-repository.ts';
import { deleteDomainBinding } from '../src/federation/federation-repository.ts';
import { linkOrProvisionAccount } from '../src/federation/link-account.ts';
import { bindUpstreamDomain, unbindUpstreamDomain } from '../src/provisioning/provider-operations.ts';
import { manualClock } from '../src/store/clock.ts';
import { oidcPayloads } from '../src/store/tables/index.ts';
import { adminEvents, signIn } from './admin-api-kit.ts';
import {
  BOUND_DOMAIN,
  expectNotSignedIn,
  lastFederationAudit,
  startRegisteredUpstream,
  throughUpstream,
} from './federation-kit.ts';
import { codeOf, linkIn } from './recovery-kit.ts';
import {
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { againstOpenTransaction } from './support/open-transaction.ts';
import { useTestService } from './support/test-service.ts';
import type { UpstreamIdp, UpstreamPerson } from './support/upstream-idp.ts';

/** Another domain of the same provider, which stays bound while BOUND_DOMAIN goes. */
const KEPT_DOMAIN = 'contoso-labs.example';
/** A third domain of the provider, unbound while its people are signed in. */
const SECOND_BOUND_DOMAIN = 'contoso-sales.example';
const OLD_PASSWORD = 'Local-Password-42';
const NEW_PASSWORD = 'Brand-New-Secret-77';

function upstreamPerson(name: string, domain: string): UpstreamPerson {
  return {
    sub: `sub-${name}`,
    email: `${name}@${domain}`,
    emailVerified: true,
    name: `${name} Upstream`,
    password: `${name}-upstream-pw`,
  };
}

/** Provisioned by federation; linked with the password of a local account; of the domain that stays. */
const IVY = upstreamPerson('ivy', BOUND_DOMAIN);
const JON = upstreamPerson('jon', BOUND_DOMAIN);
const KIM = upstreamPerson('kim', KEPT_DOMAIN);
/** Signed in (a session, a grant) when the domain is unbound: on the unbound domain, on the kept one. */
const LEA = upstreamPerson('lea', SECOND_BOUND_DOMAIN);
const MAX = upstreamPerson('max', KEPT_DOMAIN);

let idp: UpstreamIdp;
let providerId: string;

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    ({ idp, providerId } = await startRegisteredUpstream(db));
    await bindUpstreamDomain({ db }, { providerId, domain: KEPT_DOMAIN });
    await bindUpstreamDomain({ db }, { providerId, domain: SECOND_BOUND_DOMAIN });
    for (const who of [IVY, JON, KIM, LEA, MAX]) idp.setPerson(who);
  },
  tearDown: () => idp.close(),
});
const app = () => service().app;
const db = () => service().db;

/** A federated sign-in from the relying party through the provider, back to the resume path. */
async function federatedSignIn(who: UpstreamPerson) {
  const { auth, back } = await throughUpstream(app(), providerId, who);
  expect(back.headers.location).toBe(`http://localhost:3000${auth.returnUrl}`);
  return lastFederationAudit(db());
}

/** The kinds of the provider's stored payloads (sessions, grants, tokens) that name the account. */
async function payloadsOf(accountId: string): Promise<string[]> {
  const rows = await db()
    .select({ type: oidcPayloads.type })
    .from(oidcPayloads)
    .where(sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`);
  return rows.map((row) => row.type);
}

async function accountOf(who: UpstreamPerson) {
  const account = await findAccountByEmail(db(), who.email);
  if (!account) throw new Error(`no account of ${who.email}`);
  return account;
}

describe('unbinding a domain hands its linked accounts back to passwords', () => {
  // One scenario: the accounts one unbind handed back, local until their domain is bound again.
  it('unlinks the accounts of that domain linked to the provider, each on record, not another domain’s; treats them as local, and links them again once the domain is bound again', async () => {
    await createAccount(db(), JON.email, OLD_PASSWORD, 'Jon Local');
    expect(await federatedSignIn(IVY)).toMatchObject({ detail: { account: 'provisioned' } });
    expect(await federatedSignIn(JON)).toMatchObject({ detail: { account: 'linked' } });
    expect(await federatedSignIn(KIM)).toMatchObject({ detail: { account: 'provisioned' } });

    const earlierUnbinding = (await adminEvents(db(), 'idp:unbind-domain')).length;
    await unbindUpstreamDomain({ db: db() }, { providerId, domain: BOUND_DOMAIN });

    const [ivyAccount, jonAccount] = await Promise.all([accountOf(IVY), accountOf(JON)]);
    for (const account of [ivyAccount, jonAccount]) {
      expect(account).toMatchObject({ externalIdpId: null, externalSubject: null, passwordHash: null });
    }
    expect(await accountOf(KIM)).toMatchObject({ externalIdpId: providerId, externalSubject: KIM.sub });
    // This unbind's rows: other tests unbind domains of their own before or after it.
    const unbinding = (await adminEvents(db(), 'idp:unbind-domain')).slice(earlierUnbinding);
    const unlinked = { command: 'idp:unbind-domain', providerId, domain: BOUND_DOMAIN, account: 'unlinked' };
    expect(unbinding.map((row) => [row.accountId, row.detail])).toEqual(
      expect.arrayContaining([
        [ivyAccount.id, unlinked],
        [jonAccount.id, unlinked],
        [null, { command: 'idp:unbind-domain', providerId, domain: BOUND_DOMAIN, unlinkedAccounts: 2 }],
      ]),
    );
    expect(unbinding).toHaveLength(3);

    // Then local: no provider named, a reset mail that sets a password, the one from before stays dead.
    const browser = new TestBrowser(app());
    await browser.loadSpa();
    for (const who of [IVY, JON]) {
      const check = await browser.post('/api/CheckUsername', { Username: who.email, ReturnUrl: null });
      expect(checkUsernameResponse.parse(check.json())).toMatchObject({
        userHasExternalIdentityProvider: false,
        externalIdentityProviderGuid: null,
      });
      const forgot = await browser.post('/api/forgotpassword', {
        email: who.email,
        returnUrl: null,
        locationSearch: '',
      });
      expect(forgot.statusCode).toBe(200);
      expect(await service().mails('federated_account', who.email)).toEqual([]);
      expect(await service().mails('password_reset', who.email)).toHaveLength(1);
    }
    // The organisation may have offboarded the person since the link: a password from before it is
    // not revived, the reset link (to the address) sets a new one.
    expect(await signIn(app(), JON.email, OLD_PASSWORD)).toMatchObject({ isAuthenticated: false });
    const [resetMail] = await service().mails('password_reset', JON.email);
    const reset = await browser.post('/api/ResetPassword', {
      verificationCode: codeOf(linkIn(resetMail?.textBody ?? '')),
      verificationType: 1,
      newPassword: NEW_PASSWORD,
      redirectUrl: null,
    });
    expect(reset.json()).toMatchObject({ success: true });
    expect(await signIn(app(), JON.email, NEW_PASSWORD)).toMatchObject({ isAuthenticated: true });

    // Linked again by their verified address once the domain is bound again.
    await bindUpstreamDomain({ db: db() }, { providerId, domain: BOUND_DOMAIN });
    for (const who of [IVY, JON]) {
      const { id } = await accountOf(who);
      expect(await federatedSignIn(who)).toMatchObject({ accountId: id, detail: { account: 'linked' } });
      expect(await accountOf(who)).toMatchObject({ id, externalIdpId: providerId, externalSubject: who.sub });
    }
  });

  it('ends the sessions and grants of the accounts it unlinks, not of those that stay linked', async () => {
    const signedIn = async (who: UpstreamPerson) => {
      const { browser, auth } = await throughUpstream(app(), providerId, who);
      await redeemCode(app(), await resumeToCode(browser, auth.returnUrl), auth.verifier);
      return browser;
    };
    // Where a silent authorization sends the browser back: a code, or login_required.
    const silently = (browser: TestBrowser) =>
      startAuthorization(browser, { prompt: 'none' }).then(
        () => 'the sign-in page',
        (error: Error) => error.message,
      );
    const [lea, max] = [await signedIn(LEA), await signedIn(MAX)];
    expect(await silently(lea)).toMatch(/[?&]code=/);

    await unbindUpstreamDomain({ db: db() }, { providerId, domain: SECOND_BOUND_DOMAIN });

    expect(await silently(lea)).toMatch(/error=login_required/);
    expect(await payloadsOf((await accountOf(LEA)).id)).toEqual([]);
    expect(await silently(max)).toMatch(/[?&]code=/);
    expect(await payloadsOf((await accountOf(MAX)).id)).toEqual(expect.arrayContaining(['Session', 'Grant']));
  });
});

describe('an unbind racing an upstream sign-in leaves no account linked without a binding', () => {
  const RACE_DOMAIN = 'contoso-race.example';
  const identityOf = (name: string) => ({
    providerId,
    subject: `sub-${name}`,
    email: `${name}@${RACE_DOMAIN}`,
    displayName: `${name} Upstream`,
  });
  const link = (name: string, on = db()) =>
    linkOrProvisionAccount({ db: on, clock: manualClock() }, identityOf(name));

  it('refuses the link when the unbind committed first, though the callback found the domain bound', async () => {
    await bindUpstreamDomain({ db: db() }, { providerId, domain: RACE_DOMAIN });
    // The unbind's transaction has removed the binding and is still open as the link starts.
    const outcome = await againstOpenTransaction(
      db(),
      async (tx) => {
        await deleteDomainBinding(tx, { domain: RACE_DOMAIN, providerId });
      },
      () => link('nia'),
    );
    expect(outcome).toEqual({ ok: false, reason: 'domain_not_bound' });
    expect(await findAccountByEmail(db(), identityOf('nia').email)).toBeNull();
  });

  it('unlinks what the link committed when the unbind had to wait for it', async () => {
    await bindUpstreamDomain({ db: db() }, { providerId, domain: RACE_DOMAIN });
    // The link's transaction is open (account provisioned and linked) as the unbind starts.
    let linked: Awaited<ReturnType<typeof link>> | undefined;
    await againstOpenTransaction(
      db(),
      async (tx) => {
        linked = await link('oli', tx);
      },
      () => unbindUpstreamDomain({ db: db() }, { providerId, domain: RACE_DOMAIN }),
    );
    expect(linked, JSON.stringify(linked)).toMatchObject({ ok: true, how: 'provisioned' });
    expect(await findAccountByEmail(db(), identityOf('oli').email)).toMatchObject({
      externalIdpId: null,
      externalSubject: null,
    });
  });
});

describe('an upstream sign-in that came back before its domain was unbound', () => {
  const LATE_DOMAIN = 'contoso-late.example';

  it('is not resumed after the unbind: the browser is asked to sign in, and no session is written', async () => {
    const pat = upstreamPerson('pat', LATE_DOMAIN);
    idp.setPerson(pat);
    await bindUpstreamDomain({ db: db() }, { providerId, domain: LATE_DOMAIN });
    const { browser, auth, back } = await throughUpstream(app(), providerId, pat);
    expect(back.headers.location).toBe(`http://localhost:3000${auth.returnUrl}`);
    const account = await accountOf(pat);
    // The organisation no longer vouches for the domain: the link goes, and with it every sign-in.
    await unbindUpstreamDomain({ db: db() }, { providerId, domain: LATE_DOMAIN });
    await expectNotSignedIn(browser, auth.returnUrl);
    expect(await payloadsOf(account.id)).not.toContain('Session');
  });

  /**
   * A sign-in of `name` back from upstream and not resumed, then the domain unbound and bound again,
   * and the address linked again to `relinkedSubject` there (the person's own subject, or another's).
   */
  async function unresumedAcrossRelink(name: string, relinkedSubject: (person: UpstreamPerson) => string) {
    const person = upstreamPerson(name, LATE_DOMAIN);
    idp.setPerson(person);
    await bindUpstreamDomain({ db: db() }, { providerId, domain: LATE_DOMAIN });
    const signedIn = await throughUpstream(app(), providerId, person);
    await unbindUpstreamDomain({ db: db() }, { providerId, domain: LATE_DOMAIN });
    await bindUpstreamDomain({ db: db() }, { providerId, domain: LATE_DOMAIN });
    const relinked = await linkOrProvisionAccount(
      { db: db(), clock: manualClock() },
      { providerId, subject: relinkedSubject(person), email: person.email, displayName: `${name} Again` },
    );
    expect(relinked).toMatchObject({ ok: true, how: 'linked' });
    return signedIn;
  }

  it('is not resumed once the account is linked again to another person at the same provider', async () => {
    // The address now belongs to someone else there: their first sign-in linked it.
    const { browser, auth } = await unresumedAcrossRelink('ray', () => 'sub-ray-successor');
    await expectNotSignedIn(browser, auth.returnUrl);
  });

  it('is not resumed once the domain is bound again and the same person linked again: the unbind ended it', async () => {
    // Provider and subject are those the result names once more; only the ending tells it apart.
    const { browser, auth } = await unresumedAcrossRelink('sky', (person) => person.sub);
    await expectNotSignedIn(browser, auth.returnUrl);
  });

  it('is resumed while the domain stays bound', async () => {
    const quinn = upstreamPerson('quinn', KEPT_DOMAIN);
    idp.setPerson(quinn);
    const { browser, auth } = await throughUpstream(app(), providerId, quinn);
    const tokens = await redeemCode(app(), await resumeToCode(browser, auth.returnUrl), auth.verifier);
    expect(tokens.id_token).toBeTruthy();
  });
});
