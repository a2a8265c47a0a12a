import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MailKind, MailRequest, MailValues } from '../src/mail/mail-kinds.ts';
import { MailRequestError } from '../src/mail/mail-request.ts';
import { createMailService, type MailService } from '../src/mail/mail-service.ts';
import { outbox } from '../src/store/tables/mail.ts';
import { outboxRow, PUBLIC_URL, recordingLog, resetRequest } from './mail-kit.ts';
import { type SmtpSink, startSmtpSink } from './mail-sink.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
let sink: SmtpSink;
let mail: MailService;
const config = () =>
  testConfig({ PUBLIC_URL, SMTP_URL: sink.url, MAIL_FROM: 'Keycard <no-reply@example.test>' });

beforeAll(async () => {
  sink = await startSmtpSink();
  mail = createMailService({ config: config(), db: testDb().db, log: recordingLog() });
});

afterAll(async () => {
  await mail.stop();
  await sink.close();
});

beforeEach(async () => {
  await testDb().db.delete(outbox);
});

/** Queues, lets the worker deliver over real SMTP, and returns what the sink parsed. */
async function deliver(request: MailRequest, service = mail) {
  const before = sink.received.length;
  const { id } = await service.queue(testDb().db, request);
  expect(await service.runOnce()).toBe(1);
  const received = (await sink.waitFor(before + 1))[before];
  if (!received) throw new Error('nothing received');
  return { id, received, parsed: received.parsed };
}

/** Every absolute URL in a part; mail may point nowhere but PUBLIC_URL. */
function urlsIn(text: string): string[] {
  return [...text.matchAll(/(?:https?:)?\/\/[^\s"'<>]+/g)].map((match) => match[0]);
}

describe('queued mail delivered over SMTP (DESIGN §2 Mail)', () => {
  it('delivers a password-reset mail in English with its subject, both parts and the link', async () => {
    const request = resetRequest('dana@example.test', 'c0de-EN');
    const { id, received, parsed } = await deliver(request);
    const link = `${PUBLIC_URL}/resetPassword/1/c0de-EN`;

    expect(received.to).toEqual(['dana@example.test']);
    expect(parsed.from?.address).toBe('no-reply@example.test');
    expect(parsed.subject).toBe('Reset your Keycard password');
    expect(parsed.messageId).toBe(`<${id}@login.example.test>`);
    expect(parsed.headers.find((h) => h.key === 'auto-submitted')?.value).toBe('auto-generated');
    // Plain text: greeting, the link printed in full on its own line, expiry and ignore wording.
    expect(parsed.text).toContain('Hello Dana Demo,');
    expect(parsed.text?.split('\n')).toContain(link);
    expect(parsed.text).toMatch(/expires/);
    expect(parsed.text).toMatch(/you can ignore this e-mail/);
    // HTML: the link as an anchor (button and printed), nothing remote, no images.
    expect(parsed.html).toContain(`<a href="${link}"`);
    expect(parsed.html).toContain('lang="en"');
    expect(parsed.html).not.toMatch(/<img|<script|<link|url\(/i);
    expect(new Set(urlsIn(parsed.html ?? ''))).toEqual(new Set([link]));

    const row = await outboxRow(testDb().db, id);
    expect(row.sentAt).not.toBeNull();
    expect(row).toMatchObject({ attempts: 0, lockedUntil: null, failedAt: null, lastError: null });
  });

  it('delivers German mail in the formal address with real umlauts', async () => {
    const { parsed } = await deliver({
      kind: 'unlock',
      accountId: null,
      to: 'joerg@example.test',
      language: 'de',
      values: { userName: 'Jörg Müller', link: `${PUBLIC_URL}/unlock/c0de-DE` },
    });
    expect(parsed.subject).toBe('Ihr Keycard-Konto wurde gesperrt');
    expect(parsed.text).toContain('Guten Tag Jörg Müller,');
    expect(parsed.text).toContain('Zu Ihrer Sicherheit ist der Link nur kurze Zeit gültig.');
    expect(parsed.text).toMatch(/können Sie diese E-Mail ignorieren/);
    expect(parsed.text?.split('\n')).toContain(`${PUBLIC_URL}/unlock/c0de-DE`);
    expect(parsed.html).toContain('lang="de"');
    expect(parsed.html).toContain(`<a href="${PUBLIC_URL}/unlock/c0de-DE"`);
  });

  it('escapes every value in the HTML part: a display name with <script> stays text', async () => {
    const hostile = '<script>alert("x")</script> & <b>Mallory</b>';
    const { parsed } = await deliver({
      kind: 'email_change_confirm',
      accountId: null,
      to: 'mallory@example.test',
      language: 'en',
      values: {
        userName: hostile,
        newEmail: 'new"<img src=x>@example.test',
        link: `${PUBLIC_URL}/verifyNewEmail/a?b=1&c="2"`,
      },
    });
    expect(parsed.html).not.toContain('<script');
    expect(parsed.html).not.toContain('<b>');
    expect(parsed.html).not.toContain('<img');
    expect(parsed.html).toContain(
      '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#60;b&#62;Mallory',
    );
    expect(parsed.html).toContain(`href="${PUBLIC_URL}/verifyNewEmail/a?b=1&#38;c=&#34;2&#34;"`);
    // The text part is plain text: the name reads as typed.
    expect(parsed.text).toContain(`Hello ${hostile},`);
  });

  it('keeps a line break in a value from forging lines of the message', async () => {
    const { parsed } = await deliver({
      kind: 'password_changed',
      accountId: null,
      to: 'eve@example.test',
      language: 'en',
      values: { userName: 'Eve\n\nClick https://evil.test now' },
    });
    expect(parsed.text).toContain('Hello Eve  Click https://evil.test now,');
    expect(parsed.text?.split('\n')).not.toContain('Click https://evil.test now,');
  });

  it('takes the product name and support address from the site configuration', async () => {
    const base = config();
    const service = createMailService({
      config: {
        ...base,
        site: {
          ...base.site,
          productNamePart1: 'Guest',
          productNamePart2: 'Pass',
          siteEmail: 'help@guestpass.test',
        },
      },
      db: testDb().db,
      log: recordingLog(),
    });
    const { parsed } = await deliver(
      {
        kind: 'password_changed',
        accountId: null,
        to: 'ann@example.test',
        language: 'en',
        values: { userName: 'Ann' },
      },
      service,
    );
    expect(parsed.subject).toBe('Your GuestPass password was changed');
    expect(parsed.text).toContain('please write to help@guestpass.test');
    expect(parsed.html).toContain('help@guestpass.test');
  });

  const SAMPLES: { readonly [K in MailKind]: MailValues[K] } = {
    password_reset: { userName: 'Ann', link: `${PUBLIC_URL}/resetPassword/1/r` },
    unlock: { userName: 'Ann', link: `${PUBLIC_URL}/unlock/u` },
    invitation: { userName: 'Ann', link: `${PUBLIC_URL}/resetPassword/6/i` },
    email_change_confirm: {
      userName: 'Ann',
      link: `${PUBLIC_URL}/verifyNewEmail/e`,
      newEmail: 'ann@new.test',
    },
    email_change_notice: { userName: 'Ann', newEmail: 'ann@new.test' },
    email_changed: { userName: 'Ann', newEmail: 'ann@new.test' },
    password_expired: { userName: 'Ann' },
    password_changed: { userName: 'Ann' },
    federated_account: { userName: 'Ann', providerName: 'Example Corp SSO' },
  };

  it.each(['en', 'de'] as const)('delivers every kind in %s with its values filled in', async (language) => {
    for (const [kind, values] of Object.entries(SAMPLES) as [MailKind, MailValues[MailKind]][]) {
      const { parsed } = await deliver({ kind, accountId: null, to: 'ann@example.test', language, values });
      const filled = Object.values(values).filter((value) => !value.startsWith('http'));
      for (const value of filled) expect(parsed.text, kind).toContain(value);
      expect(parsed.text, kind).not.toMatch(/[{}]/);
      expect(parsed.subject, kind).toContain('Keycard');
      const link = 'link' in values ? values.link : undefined;
      expect(urlsIn(parsed.html ?? ''), kind).toEqual(link === undefined ? [] : [link, link, link]);
      expect(parsed.html, kind).toContain(`lang="${language}"`);
    }
  });
});

describe('queue refuses what must not be sent', () => {
  const refusedLinks = [
    'https://evil.test/resetPassword/1/x',
    `${PUBLIC_URL}.evil.test/resetPassword/1/x`,
    `${PUBLIC_URL}@evil.test/resetPassword/1/x`,
    `${PUBLIC_URL.replace('https:', 'http:')}/resetPassword/1/x`,
    PUBLIC_URL,
    `${PUBLIC_URL}/reset password`,
    `${PUBLIC_URL}/x\r\n`,
    `//login.example.test/resetPassword/1/x`,
  ];

  it.each(refusedLinks)('refuses the link %j and writes nothing', async (link) => {
    const request = { ...resetRequest('dana@example.test'), values: { userName: 'Dana', link } };
    await expect(mail.queue(testDb().db, request)).rejects.toThrow(MailRequestError);
    expect(await testDb().db.select().from(outbox)).toEqual([]);
  });

  const refusedAddresses = [
    'a@example.test, b@example.test',
    'Dana <dana@example.test>',
    // A group to a mail library: it would deliver to dana@example.test.
    'team:dana@example.test',
    'dana@example.test\r\nBcc: x@evil.test',
    'no-at-sign',
    'dana@localhost',
    'dana @example.test',
    '',
  ];

  it.each(refusedAddresses)('refuses the recipient %j and writes nothing', async (to) => {
    await expect(mail.queue(testDb().db, resetRequest(to))).rejects.toThrow(MailRequestError);
    expect(await testDb().db.select().from(outbox)).toEqual([]);
  });

  it('writes in the caller’s transaction: a rollback leaves no mail behind', async () => {
    const db = testDb().db;
    await expect(
      db.transaction(async (tx) => {
        await mail.queue(tx, resetRequest('dana@example.test'));
        throw new Error('the code could not be stored');
      }),
    ).rejects.toThrow('the code could not be stored');
    expect(await db.select().from(outbox)).toEqual([]);
    await db.transaction(async (tx) => {
      await mail.queue(tx, resetRequest('dana@example.test'));
    });
    expect(await db.select().from(outbox)).toHaveLength(1);
  });
});
