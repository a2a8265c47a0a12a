import { describe, expect, it } from 'vitest';
import { findAccountByEmail } from '../src/accounts/account-repository.ts';
import { addUpstreamProvider } from '../src/provisioning/provider-operations.ts';
import {
  BOUND_DOMAIN,
  CALLBACK_URL,
  expectErrorPage,
  expectNotSignedIn,
  lastFederationAudit,
  throughUpstream,
  UPSTREAM_CLIENT_ID,
  UPSTREAM_SECRET,
} from './federation-kit.ts';
import { claimsOf, redeemCode, registerTestClient, resumeToCode } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';
import { startUpstreamIdp, type UpstreamIdp, type UpstreamPerson } from './support/upstream-idp.ts';

function upstreamPerson(name: string, details: Partial<UpstreamPerson> = {}): UpstreamPerson {
  return {
    sub: `sub-${name}`,
    email: `${name}@${BOUND_DOMAIN}`,
    emailVerified: true,
    name: `${name} Upstream`,
    password: `${name}-upstream-pw`,
    ...details,
  };
}

const VERIFIED = upstreamPerson('uma');
/** UserInfo answers about another subject than the ID token names. */
const SOMEONE_ELSE = upstreamPerson('vic', { userInfoSubject: 'sub-somebody-else' });
/** The provider says nothing of whether the address is verified. */
const UNSTATED = upstreamPerson('wes', { emailVerified: undefined });
const UNVERIFIED = upstreamPerson('xia', { emailVerified: false });

let idp: UpstreamIdp;
let providerId: string;

// The provider conforms to OpenID Connect Core §5.4: the ID token of the code flow carries `sub` and
// no e-mail or profile claim; those come from UserInfo only (oidc-provider's default, Okta's too).
const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    idp = await startUpstreamIdp({
      clientId: UPSTREAM_CLIENT_ID,
      clientSecret: UPSTREAM_SECRET,
      redirectUri: CALLBACK_URL,
      people: [VERIFIED, SOMEONE_ELSE, UNSTATED, UNVERIFIED],
      conformIdTokenClaims: true,
    });
    ({ id: providerId } = await addUpstreamProvider(
      { db },
      {
        name: 'Conforming',
        issuer: idp.issuer,
        clientId: UPSTREAM_CLIENT_ID,
        clientSecret: UPSTREAM_SECRET,
        domains: [BOUND_DOMAIN],
      },
    ));
  },
  tearDown: () => idp.close(),
});
const app = () => service().app;
const db = () => service().db;

async function expectRefusedAt(who: UpstreamPerson, reason: string) {
  const { browser, auth, back } = await throughUpstream(app(), providerId, who);
  expectErrorPage(back);
  expect(await lastFederationAudit(db())).toMatchObject({
    outcome: 'refused',
    detail: { step: 'callback', reason, providerId },
  });
  await expectNotSignedIn(browser, auth.returnUrl);
  expect(await findAccountByEmail(db(), who.email)).toBeNull();
}

describe('claims a provider returns from UserInfo only (OpenID Connect Core §5.4)', () => {
  it('signs in a verified person of a bound domain with the address and name UserInfo answers', async () => {
    const { browser, auth, back } = await throughUpstream(app(), providerId, VERIFIED);
    expect(back.headers.location).toBe(`http://localhost:3000${auth.returnUrl}`);
    const tokens = await redeemCode(app(), await resumeToCode(browser, auth.returnUrl), auth.verifier);
    const account = await findAccountByEmail(db(), VERIFIED.email);
    expect(account).toMatchObject({
      displayName: 'uma Upstream',
      externalIdpId: providerId,
      externalSubject: VERIFIED.sub,
      emailVerifiedAt: expect.any(Date),
    });
    expect(claimsOf(tokens.id_token)).toMatchObject({ sub: account?.id, email: VERIFIED.email });
    expect(await lastFederationAudit(db())).toMatchObject({
      outcome: 'success',
      detail: { step: 'callback', account: 'provisioned' },
    });
  });

  it('refuses a UserInfo answer whose sub is not the ID token’s, as a UserInfo failure', async () => {
    await expectRefusedAt(SOMEONE_ELSE, 'userinfo_failed');
  });

  it('refuses an address whose email_verified UserInfo leaves out or denies', async () => {
    await expectRefusedAt(UNSTATED, 'email_unverified');
    await expectRefusedAt(UNVERIFIED, 'email_unverified');
  });
});
