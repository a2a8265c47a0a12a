import { VerificationType } from '@keycard/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deleteAccount } from '../src/accounts/account-repository.ts';
import { deleteCodesExpiredBefore } from '../src/codes/code-repository.ts';
import { retryFailedMail } from '../src/mail/failed-mail.ts';
import { claimNextDue, EXPIRED_ERROR, withdrawDeadMail } from '../src/mail/outbox-repository.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { checkVerification } from '../src/recovery/check-verification.ts';
import { confirmNewEmail } from '../src/recovery/confirm-new-email.ts';
import { requestPasswordReset } from '../src/recovery/forgot-password.ts';
import { requestEmailChange } from '../src/recovery/request-email-change.ts';
import { resetPassword } from '../src/recovery/reset-password.ts';
import { outbox } from '../src/store/tables/mail.ts';
import { PUBLIC_URL, recordingLog, steppingClock, useMailServices } from './mail-kit.ts';
import { deadPort } from './mail-sink.ts';
import { codeOf, freshIp, NEW_PASSWORD, recoveryDeps } from './recovery-kit.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';

const testDb = useTestDatabase();
const { sinkFor, serviceFor } = useMailServices(testDb);
let serial = 0;

async function account() {
  serial += 1;
  return createAccount(testDb().db, `withdrawn-${serial}-${Date.now()}@example.test`, 'Withdrawn-Pass-42');
}

/** The link of `path` ("/resetPassword/1/") in an outbox row's text body, as it was queued. */
function linkIn(text: string, path: string): string {
  const link = text.split('\n').find((line) => line.startsWith(`${PUBLIC_URL}${path}`));
  if (!link) throw new Error(`no ${path} link in the message`);
  return link;
}

/**
 * A mail service sending to `smtpUrl` (to a port nothing listens on when none: an SMTP outage), and
 * recovery dependencies that queue through it, on one clock the test moves.
 */
async function mailingTo(smtpUrl?: string) {
  const clock = steppingClock();
  const service = serviceFor(smtpUrl ?? `smtp://127.0.0.1:${await deadPort()}`, clock);
  return { clock, service, deps: recoveryDeps(testDb().db, { mail: service, publicUrl: PUBLIC_URL, clock }) };
}

/** Every message in the outbox, oldest first. */
async function queued() {
  return testDb().db.select().from(outbox).orderBy(outbox.createdAt);
}

describe('mail whose link stopped working before it went out (DESIGN §2 Mail, Codes)', () => {
  it('sends only the newest of two reset links requested during an outage, and withdraws the older, retrying one', async () => {
    const { clock, service: dead, deps } = await mailingTo();
    const { email } = await account();
    await requestPasswordReset(deps, { email, ip: null, language: 'en' });
    // The first attempt fails: the message waits 30 s for its next one.
    expect(await dead.runOnce()).toBe(1);
    const [older] = await queued();
    expect(older).toMatchObject({ attempts: 1, sentAt: null, failedAt: null });
    const olderLink = linkIn(older?.textBody ?? '', '/resetPassword/1/');
    await requestPasswordReset(deps, { email, ip: null, language: 'en' });

    const smtp = await sinkFor();
    const log = recordingLog();
    const metrics = createMetrics();
    const live = serviceFor(smtp.url, clock, log, metrics.mail);
    clock.advance(31_000);
    expect(await live.runOnce()).toBe(1);
    const [received] = await smtp.waitFor(1);
    const sentLink = linkIn(received?.parsed.text ?? '', '/resetPassword/1/');
    expect(sentLink).not.toBe(olderLink);
    expect(await queued()).toEqual([expect.objectContaining({ sentAt: expect.any(Date) })]);
    expect(log.lines).toContain('Mail withdrawn unsent, its link replaced or used: 1 message(s)');
    // Counted as withdrawn, neither sent nor failed.
    const scraped = await metrics.scrape();
    expect(scraped).toMatch(/^keycard_mail_withdrawn_total 1$/m);
    expect(scraped).toMatch(/^keycard_mail_sent_total 1$/m);
    expect(scraped).not.toMatch(/^keycard_mail_failed_total\{[^}]*\} [1-9]/m);
    const check = (link: string) =>
      checkVerification(deps, { code: codeOf(link), type: VerificationType.PasswordReset, ip: freshIp() });
    expect((await check(sentLink)).isValid).toBe(true);
    expect((await check(olderLink)).isValid).toBe(false);
    expect(await live.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it('withdraws an unsent reset link of the old address once a change of address is confirmed', async () => {
    const smtp = await sinkFor();
    const { service, deps } = await mailingTo(smtp.url);
    const { id, email } = await account();
    await requestPasswordReset(deps, { email, ip: null, language: 'en' });
    const newEmail = `moved-${serial}@example.test`;
    expect(await requestEmailChange(deps, id, newEmail)).toEqual({ outcome: 'requested' });
    const confirmation = (await queued()).find((row) => row.kind === 'email_change_confirm');
    const code = codeOf(linkIn(confirmation?.textBody ?? '', '/verifyNewEmail/'));
    expect((await confirmNewEmail(deps, { code, ip: freshIp(), language: 'en' })).outcome).toBe('confirmed');

    // The reset link to the address the account left, and the confirmation just used, are not sent;
    // the notices (which carry no link) are.
    expect(await service.runOnce()).toBe(2);
    const received = await smtp.waitFor(2);
    expect(received.map((message) => message.to)).toEqual([[email], [email]]);
    expect(received.map((message) => message.parsed.text ?? '').join('\n')).not.toContain('/resetPassword/');
  });

  it('withdraws the unsent mail of a link already used, and sends the notice of the change', async () => {
    const smtp = await sinkFor();
    const { service, deps } = await mailingTo(smtp.url);
    const { email } = await account();
    await requestPasswordReset(deps, { email, ip: null, language: 'en' });
    // The link is used before its message went out (a second delivery after a lost acknowledgement).
    const [mail] = await queued();
    const code = codeOf(linkIn(mail?.textBody ?? '', '/resetPassword/1/'));
    const reset = await resetPassword(deps, {
      code,
      type: 1,
      newPassword: NEW_PASSWORD,
      ip: freshIp(),
      language: 'en',
    });
    expect(reset.outcome).toBe('reset');

    expect(await service.runOnce()).toBe(1);
    const [received] = await smtp.waitFor(1);
    expect(received?.parsed.text).not.toContain('/resetPassword/');
    expect((await queued()).map((row) => row.kind)).toEqual(['password_changed']);
  });

  it('leaves a message being sent and one given up alone, and mail:failed --retry sends neither dead link again', async () => {
    const { clock, deps } = await mailingTo();
    const sending = await account();
    const givenUp = await account();
    await requestPasswordReset(deps, { email: sending.email, ip: null, language: 'en' });
    const now = await clock.now();
    // A worker holds the first message for five minutes while it sends it.
    const claimed = await claimNextDue(testDb().db, now, new Date(now.getTime() + 300_000));
    expect(claimed?.recipient).toBe(sending.email);
    await requestPasswordReset(deps, { email: givenUp.email, ip: null, language: 'en' });
    await testDb()
      .db.update(outbox)
      .set({ failedAt: now, lastError: '550 no such mailbox' })
      .where(eq(outbox.recipient, givenUp.email));
    await requestPasswordReset(deps, { email: sending.email, ip: null, language: 'en' });
    await requestPasswordReset(deps, { email: givenUp.email, ip: null, language: 'en' });

    expect(await withdrawDeadMail(testDb().db, now)).toBe(0);
    expect((await queued()).map((row) => row.recipient)).toEqual([
      sending.email,
      givenUp.email,
      sending.email,
      givenUp.email,
    ]);
    // The failed message's link was replaced meanwhile: a retry of everything failed leaves it failed.
    expect(await retryFailedMail(testDb().db)).toEqual([]);
    // Once the lease has lapsed (the worker died mid-send), the first message is not claimed again,
    // though it is the most overdue: its link is dead. Its own withdrawal follows.
    const lapsed = new Date(now.getTime() + 300_001);
    const next = await claimNextDue(testDb().db, lapsed, new Date(lapsed.getTime() + 300_000));
    expect(next?.id).not.toBe(claimed?.id);
    expect(next?.recipient).toBe(sending.email);
    expect(await withdrawDeadMail(testDb().db, lapsed)).toBe(1);
    expect((await queued()).map((row) => row.recipient)).toEqual([
      givenUp.email,
      sending.email,
      givenUp.email,
    ]);
  });

  it('keeps a message whose code housekeeping deleted, and deletes a deleted account’s with its code', async () => {
    const { clock, service, deps } = await mailingTo();
    const kept = await account();
    const deleted = await account();
    await requestPasswordReset(deps, { email: kept.email, ip: null, language: 'en' });
    await requestPasswordReset(deps, { email: deleted.email, ip: null, language: 'en' });
    const [keptMail] = await queued();
    expect(keptMail?.codeId).not.toBeNull();

    expect(await deleteAccount(testDb().db, deleted.id)).toBe(true);
    expect((await queued()).map((row) => row.recipient)).toEqual([kept.email]);
    // Housekeeping deletes codes long expired, as the message then has: it forgets the code, and its
    // own expiry keeps it from being sent.
    expect(
      await deleteCodesExpiredBefore(testDb().db, new Date(Date.now() + 86_400_000), []),
    ).toBeGreaterThan(0);
    const [forgotten] = await queued();
    expect(forgotten).toMatchObject({ id: keptMail?.id, codeId: null, expiresAt: keptMail?.expiresAt });
    // Past that expiry the worker fails it as expired: neither withdrawn nor sent.
    clock.advance(2 * 3_600_000);
    expect(await service.runOnce()).toBe(0);
    const [failed] = await queued();
    expect(failed).toMatchObject({ id: keptMail?.id, sentAt: null, lastError: EXPIRED_ERROR });
  });
});
