import { VerificationType } from '@keycard/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { failureCount, findAccountByEmail, setDisabled } from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { isLocked, recordFailure } from '../src/accounts/lockout.ts';
import { codeHash } from '../src/codes/codes.ts';
import {
  accounts,
  auditEvents,
  upstreamDomains,
  upstreamProviders,
  verificationCodes,
} from '../src/store/tables/index.ts';
import { type ApiClient, apiClient, codeOf, freshIp, linkIn, STRONG } from './recovery-kit.ts';
import { createAccount, registerTestClient } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const PUBLIC_URL = 'http://localhost:3000';
let api: ApiClient;
let serial = 0;

// Nothing listens on port 9: every delivery attempt fails, as with an SMTP server that is down.
const service = useTestService({
  env: { SMTP_URL: 'smtp://127.0.0.1:9', LOCKOUT_THRESHOLD: '3' },
  setUp: async ({ app, db }) => {
    app.mail.start();
    api = await apiClient(app);
    await registerTestClient(db);
  },
});
const db = () => service().db;

async function localAccount(name = 'Ada Lovelace') {
  serial += 1;
  return createAccount(db(), `forgot-${serial}@example.com`, STRONG, name);
}

function forgot(
  email: string,
  extra: Record<string, unknown> = {},
  options: Parameters<ApiClient['post']>[2] = {},
) {
  return api.post('/api/forgotpassword', { email, returnUrl: null, locationSearch: '', ...extra }, options);
}

/**
 * The reset codes issued for an account, superseded ones included: one for each reset mail queued,
 * however many of those mails the worker has withdrawn since (their links replaced).
 */
function resetCodesIssued(accountId: string) {
  return db()
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.accountId, accountId),
        eq(verificationCodes.verificationType, VerificationType.PasswordReset),
      ),
    );
}

async function resetMailTo(email: string): Promise<string> {
  const [mail] = await service().mails('password_reset', email);
  if (!mail) throw new Error(`no reset mail to ${email}`);
  return linkIn(mail.textBody);
}

describe('POST /api/forgotpassword (DESIGN §2 Forgot password)', () => {
  it('answers byte-identical bodies for existing, unknown, federated, disabled, locked and limited addresses while SMTP is down', async () => {
    const existing = await localAccount();
    const [provider] = await db()
      .insert(upstreamProviders)
      .values({
        name: 'Contoso SSO',
        issuer: 'https://sso.contoso.test',
        clientId: 'k',
        clientSecret: 's',
        scopes: [],
      })
      .returning();
    const federated = await localAccount('Fed Erated');
    await db()
      .update(accounts)
      .set({ externalIdpId: provider?.id ?? null })
      .where(eq(accounts.id, federated.id));
    await db()
      .insert(upstreamDomains)
      .values({ domain: 'sso.contoso.test', providerId: provider?.id ?? '' });
    const byDomain = await createAccount(db(), 'member@sso.contoso.test', null, 'Dom Ain');
    const disabled = await localAccount();
    await setDisabled(db(), disabled.id, true);
    const locked = await localAccount();
    const now = new Date();
    for (let n = 0; n < 3; n++)
      await recordFailure(db(), identifierHash(locked.email), now, { threshold: 3, minutes: 0 });
    const limited = await localAccount();
    for (let n = 0; n < 3; n++) await forgot(limited.email);

    const answers = await Promise.all(
      [
        existing.email,
        'nobody@example.com',
        federated.email,
        byDomain.email,
        disabled.email,
        locked.email,
        limited.email,
      ].map((email) => forgot(email)),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe('{}');
      expect(answer.headers['content-type']).toBe(answers[0]?.headers['content-type']);
    }
    expect(await service().mails('password_reset', existing.email)).toHaveLength(1);
    expect(await service().mails('password_reset', locked.email)).toHaveLength(1);
    expect(await resetCodesIssued(limited.id)).toHaveLength(3);
    expect(await service().mails(undefined, 'nobody@example.com')).toHaveLength(0);
    expect(await service().mails(undefined, disabled.email)).toHaveLength(0);
    for (const account of [federated, byDomain]) {
      const mails = await service().mails(undefined, account.email);
      expect(mails.map((mail) => mail.kind)).toEqual(['federated_account']);
      expect(mails[0]?.textBody).toContain('Contoso SSO');
    }
    // Queued, not lost: the row waits for SMTP to come back.
    const [waiting] = await service().mails('password_reset', existing.email);
    expect(waiting?.sentAt).toBeNull();
  });

  it('mails a PUBLIC_URL reset link whatever the Host header says, and stores only the code’s hash', async () => {
    const account = await localAccount();
    // A name the service is not configured under gets no further than 421, and no mail.
    const foreign = await forgot(account.email, {}, { headers: { host: 'evil.test' } });
    expect(foreign.statusCode).toBe(421);
    expect(await service().mails('password_reset', account.email)).toHaveLength(0);
    // Another name it answers for (a loopback one, outside production) still gets PUBLIC_URL's link.
    await forgot(account.email, {}, { headers: { host: '127.0.0.1:8080', 'x-forwarded-host': 'evil.test' } });
    const link = await resetMailTo(account.email);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/resetPassword/1/[\\w-]{43}$`));
    const code = codeOf(link);
    const rows = await db()
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.accountId, account.id));
    expect(rows.map((row) => [row.verificationType, row.codeHash])).toEqual([[1, codeHash(code)]]);
    expect(JSON.stringify(rows)).not.toContain(code);
    const check = await api.post('/api/CheckVerification', { verificationCode: code, verificationType: 1 });
    expect(check.json()).toEqual({ isValid: true, userName: 'Ada Lovelace' });
    // The message expires with its code: the worker never delivers a dead link.
    const [mail] = await service().mails('password_reset', account.email);
    expect(mail?.expiresAt?.getTime()).toBe(rows[0]?.expiresAt.getTime());
  });

  it.each([
    [
      'a local ReturnUrl',
      '?ReturnUrl=%2Foidc%2Fauth%2Fabc%3Fproduct%3DPlanner',
      '?ReturnUrl=%2Foidc%2Fauth%2Fabc%3Fproduct%3DPlanner',
    ],
    [
      'a registered RedirectUrl',
      '?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome',
      '?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome',
    ],
    [
      'the RedirectUrl of two valid ones',
      '?ReturnUrl=%2Fx&RedirectUrl=https%3A%2F%2Fplanner.example%2F',
      '?RedirectUrl=https%3A%2F%2Fplanner.example%2F',
    ],
    ['no foreign RedirectUrl', '?RedirectUrl=https%3A%2F%2Fevil.test%2F', ''],
    ['no protocol-relative ReturnUrl', '?ReturnUrl=%2F%2Fevil.test', ''],
    ['no absolute ReturnUrl', '?returnUrl=https%3A%2F%2Fevil.test', ''],
    ['no other parameter', '?product=Planner&foo=%2Fbar', ''],
    [
      'a RedirectUrl spelt redirectUrl',
      '?redirectUrl=https%3A%2F%2Fplanner.example%2Fhome',
      '?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome',
    ],
    [
      'a local ReturnUrl spelt returnUrl',
      '?returnUrl=%2Foidc%2Fauth%2Fabc',
      '?ReturnUrl=%2Foidc%2Fauth%2Fabc',
    ],
  ])('keeps %s in the link', async (_name, locationSearch, query) => {
    const account = await localAccount();
    await forgot(account.email, { locationSearch });
    const link = new URL(await resetMailTo(account.email));
    expect(link.search).toBe(query);
  });

  it('changes no account state: a lock, the failure count and the password stay as they were', async () => {
    const account = await localAccount();
    const id = identifierHash(account.email);
    const now = new Date();
    for (let n = 0; n < 3; n++) await recordFailure(db(), id, now, { threshold: 3, minutes: 0 });
    const before = await findAccountByEmail(db(), account.email);
    await forgot(account.email);
    expect(await findAccountByEmail(db(), account.email)).toEqual(before);
    expect(await isLocked(db(), id, new Date())).toBe(true);
    expect(await failureCount(db(), id)).toBe(3);
  });

  it('limits mail per address and per client address, answering the same', async () => {
    const account = await localAccount();
    for (let n = 0; n < 4; n++) expect((await forgot(account.email)).body).toBe('{}');
    expect(await resetCodesIssued(account.id)).toHaveLength(3);

    const ip = freshIp();
    await Promise.all(Array.from({ length: 20 }, (_, n) => forgot(`spray-${n}@example.com`, {}, { ip })));
    const victim = await localAccount();
    expect((await forgot(victim.email, {}, { ip })).body).toBe('{}');
    expect(await service().mails('password_reset', victim.email)).toHaveLength(0);
    expect((await forgot(victim.email, {}, { ip: freshIp() })).body).toBe('{}');
    expect(await service().mails('password_reset', victim.email)).toHaveLength(1);
  });

  it('records a reset_request audit event for known and unknown addresses, without the code', async () => {
    const account = await localAccount();
    const ip = freshIp();
    await forgot(account.email, {}, { ip });
    await forgot('unknown-audit@example.com', {}, { ip });
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'reset_request'), eq(auditEvents.ip, ip)));
    expect(events.map((event) => [event.accountId, event.outcome])).toEqual(
      expect.arrayContaining([
        [account.id, 'success'],
        [null, 'success'],
      ]),
    );
    const code = codeOf(await resetMailTo(account.email));
    expect(JSON.stringify(events)).not.toContain(code);
  });

  it('supersedes the previous reset link with a new request', async () => {
    const account = await localAccount();
    await forgot(account.email);
    const first = await resetMailTo(account.email);
    await forgot(account.email);
    // The first mail, unsent while SMTP is down, is withdrawn by the worker once its link is replaced.
    const second = (await service().mails('password_reset', account.email))
      .map((mail) => linkIn(mail.textBody))
      .find((link) => link !== first);
    const check = async (link: string | undefined) =>
      (
        await api.post('/api/CheckVerification', {
          verificationCode: codeOf(link ?? ''),
          verificationType: VerificationType.PasswordReset,
        })
      ).json();
    expect(await check(first)).toEqual({ isValid: false, userName: null });
    expect(await check(second)).toEqual({ isValid: true, userName: 'Ada Lovelace' });
    const live = await db()
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.accountId, account.id), isNull(verificationCodes.supersededAt)));
    expect(live).toHaveLength(1);
  });
});

describe('POST /api/forgotpassword with configured limits', () => {
  // FORGOT_PASSWORD_PER_ADDRESS=1 and FORGOT_PASSWORD_PER_IP=2 through the service's own wiring.
  const limited = useTestService({ env: { FORGOT_PASSWORD_PER_ADDRESS: '1', FORGOT_PASSWORD_PER_IP: '2' } });

  it('mails an address once and serves one client address twice, answering every request alike', async () => {
    const client = await apiClient(limited().app);
    const ask = (email: string, ip = freshIp()) =>
      client.post('/api/forgotpassword', { email, returnUrl: null, locationSearch: '' }, { ip });
    const first = await createAccount(limited().db, 'limit-first@example.com', STRONG);
    const answers = [await ask(first.email), await ask(first.email)];
    expect(await limited().mails('password_reset', first.email)).toHaveLength(1);

    const ip = freshIp();
    const second = await createAccount(limited().db, 'limit-second@example.com', STRONG);
    const third = await createAccount(limited().db, 'limit-third@example.com', STRONG);
    answers.push(
      await ask('limit-nobody@example.com', ip),
      await ask(second.email, ip),
      await ask(third.email, ip),
    );
    expect(await limited().mails('password_reset', second.email)).toHaveLength(1);
    expect(await limited().mails('password_reset', third.email)).toHaveLength(0);
    expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`)).size).toBe(1);
  });
});
