import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MailboxEntry } from '../src/mail/dev-mailbox/mailbox-view.ts';
import { createMailService } from '../src/mail/mail-service.ts';
import { outbox } from '../src/store/tables/mail.ts';
import { eventually, outboxRow, PUBLIC_URL, recordingLog, resetRequest } from './mail-kit.ts';
import { deadPort, startSilentServer } from './mail-sink.ts';
import { apiClient, outboxMails } from './recovery-kit.ts';
import { buildTestApp, testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';
import { testSigningJwk } from './support/signing-key.ts';

const testDb = useTestDatabase();
const cleanup: (() => Promise<void>)[] = [];

beforeEach(async () => {
  await testDb().db.delete(outbox);
});

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function appWith(options: Parameters<typeof buildTestApp>[1]): Promise<FastifyInstance> {
  const app = await buildTestApp(testDb().db, options);
  cleanup.push(() => app.close());
  return app;
}

describe('sending never slows an HTTP answer (issue 4: slow or dead SMTP)', () => {
  it('answers an API call promptly while the worker hangs on an SMTP server', async () => {
    const hanging = await startSilentServer();
    cleanup.push(() => hanging.close());
    const env = { PUBLIC_URL, SMTP_URL: hanging.url };
    const mail = createMailService({
      config: testConfig(env),
      db: testDb().db,
      log: recordingLog(),
      timing: { stopGraceMs: 100 },
    });
    const app = await appWith({ env, mail });
    app.mail.start();
    const { id } = await app.mail.queue(testDb().db, resetRequest('dana@example.test'));
    app.mail.nudge();
    await eventually(async () => (await outboxRow(testDb().db, id)).lockedUntil !== null);

    // The silent server never answers, so the send hangs until stop(): an answer that waited for it
    // would never come. Each call below answering while the message is still unsent is the proof;
    // no stopwatch needed.
    const response = await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
    const resources = await app.inject({ method: 'GET', url: '/api/i18n/getresource?lang=de' });
    expect(response.statusCode).toBe(200);
    expect(resources.statusCode).toBe(200);
    expect((await outboxRow(testDb().db, id)).sentAt).toBeNull(); // the send is still hanging

    // A call that queues mail of its own answers too, its message waiting behind the hanging one.
    const account = await createAccount(testDb().db, 'hanging-smtp@example.test', 'Hanging-Smtp-42!');
    const client = await apiClient(app);
    const forgot = await client.post('/api/forgotpassword', {
      email: account.email,
      returnUrl: null,
      locationSearch: '',
    });
    expect(forgot.statusCode).toBe(200);
    const [queued] = await outboxMails(testDb().db, 'password_reset', account.email);
    expect(queued).toMatchObject({ sentAt: null, attempts: 0 });
    expect((await outboxRow(testDb().db, id)).sentAt).toBeNull();
  });
});

describe('development mailbox /dev/mail (DESIGN §2 Modes)', () => {
  // PUBLIC_URL is on another host than the service's loopback address, which by itself keeps the
  // mailbox off (config.ts); these tests turn it on as a developer behind such a name would.
  const MAILBOX = { PUBLIC_URL, DEV_MAILBOX: 'true' };

  it('lists messages newest first with their links clickable and every value escaped', async () => {
    const app = await appWith({ env: MAILBOX });
    expect(app.mail.transport).toBe('dev-mailbox');
    const older = await app.mail.queue(testDb().db, resetRequest('first@example.test', 'older'));
    // Queued a minute before the next one, stated instead of slept for: two rows queued within the
    // same instant would tie on their time.
    await testDb()
      .db.update(outbox)
      .set({ createdAt: sql`${outbox.createdAt} - interval '1 minute'` })
      .where(eq(outbox.id, older.id));
    await app.mail.queue(testDb().db, {
      kind: 'unlock',
      accountId: null,
      to: 'second@example.test',
      language: 'de',
      values: { userName: '<script>alert(1)</script>', link: `${PUBLIC_URL}/unlock/newer` },
    });

    const page = await app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const html = page.body;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|style=|<iframe/i);
    expect(html.indexOf('second@example.test')).toBeLessThan(html.indexOf('first@example.test'));
    expect(html).toContain(`<a href="${PUBLIC_URL}/unlock/newer" rel="noreferrer">`);
    expect(html).toContain(`<a href="${PUBLIC_URL}/resetPassword/1/older" rel="noreferrer">`);
    expect(html).toContain('<td>queued</td>');
    expect(html).toContain('<link rel="stylesheet" href="/dev/mail.css">');

    const json = await app.inject({ method: 'GET', url: '/dev/mail.json' });
    const entries = json.json<MailboxEntry[]>();
    expect(entries.map((entry) => [entry.to, entry.links, entry.status])).toEqual([
      ['second@example.test', [`${PUBLIC_URL}/unlock/newer`], 'queued'],
      ['first@example.test', [`${PUBLIC_URL}/resetPassword/1/older`], 'queued'],
    ]);

    const message = await app.inject({ method: 'GET', url: `/dev/mail/${entries[0]?.id}` });
    expect(message.statusCode).toBe(200);
    expect(message.body).toContain('Guten Tag &#60;script&#62;alert(1)&#60;/script&#62;,');
    expect(message.body).not.toMatch(/<script|style=/i);
    expect(message.body).toContain(`<a href="${PUBLIC_URL}/unlock/newer" rel="noreferrer">`);

    const css = await app.inject({ method: 'GET', url: '/dev/mail.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for an unknown or malformed message id', async () => {
    const app = await appWith({ env: MAILBOX });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', '..%2F..%2Fetc']) {
      const response = await app.inject({ method: 'GET', url: `/dev/mail/${id}` });
      expect(response.statusCode, id).toBe(404);
      expect(response.body).not.toContain('<!doctype html>');
    }
  });

  it('without SMTP_URL the worker marks mail sent and logs recipient, subject and first link', async () => {
    const log = recordingLog();
    const mail = createMailService({ config: testConfig(MAILBOX), db: testDb().db, log });
    const app = await appWith({ env: MAILBOX, mail });
    const { id } = await app.mail.queue(testDb().db, resetRequest('dana@example.test', 'logged'));
    expect(await app.mail.runOnce()).toBe(1);
    expect((await outboxRow(testDb().db, id)).sentAt).not.toBeNull();
    expect(log.lines).toEqual([
      `Dev mailbox: to dana@example.test, "Reset your Keycard password", ${PUBLIC_URL}/resetPassword/1/logged`,
    ]);
    const page = await app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.body).toContain('<td>sent</td>');
  });

  it('is not served in development once SMTP_URL is configured, unless DEV_MAILBOX forces it', async () => {
    const smtpUrl = `smtp://127.0.0.1:${await deadPort()}`;
    const withSmtp = await appWith({ env: { PUBLIC_URL, SMTP_URL: smtpUrl } });
    await withSmtp.mail.queue(testDb().db, resetRequest('erin@example.test'));
    for (const url of ['/dev/mail', '/dev/mail.json']) {
      const response = await withSmtp.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('erin@example.test');
    }
    const forced = await appWith({ env: { PUBLIC_URL, SMTP_URL: smtpUrl, DEV_MAILBOX: '1' } });
    const page = await forced.inject({ method: 'GET', url: '/dev/mail.json' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('erin@example.test');
  });

  it('is not served in development when its PUBLIC_URL is on another host or a proxy is trusted', async () => {
    for (const env of [{ PUBLIC_URL }, { PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: 'true' }]) {
      const app = await appWith({ env });
      expect(app.mail.transport).toBe('dev-mailbox');
      await app.mail.queue(testDb().db, {
        ...resetRequest('gail@example.test'),
        values: {
          userName: 'Gail',
          link: `${env.PUBLIC_URL}/resetPassword/1/gail`,
        },
      });
      const response = await app.inject({ method: 'GET', url: '/dev/mail' });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('gail@example.test');
    }
  });

  it('is not served in development when the service listens beyond this machine', async () => {
    const app = await appWith({ env: { PUBLIC_URL, HOST: '0.0.0.0' } });
    expect(app.mail.transport).toBe('dev-mailbox');
    await app.mail.queue(testDb().db, resetRequest('finn@example.test'));
    const response = await app.inject({ method: 'GET', url: '/dev/mail' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('finn@example.test');
  });

  it('does not exist in production: 404, not the SPA', async () => {
    const app = await appWith({
      env: {
        NODE_ENV: 'production',
        PUBLIC_URL,
        DATABASE_URL: 'postgres://keycard@127.0.0.1:5432/unused',
        SMTP_URL: `smtp://127.0.0.1:${await deadPort()}`,
        COOKIE_SECRETS: 'p'.repeat(32),
        OIDC_JWKS: JSON.stringify({ keys: [testSigningJwk()] }),
      },
    });
    expect(app.mail.transport).toBe('smtp');
    await app.mail.queue(testDb().db, resetRequest('dana@example.test'));
    for (const url of [
      '/dev/mail',
      '/dev/mail.json',
      '/dev/mail.css',
      '/dev/mail/00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: { host: new URL(PUBLIC_URL).host } });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('dana@example.test');
      expect(response.body, url).not.toContain('<!doctype html>');
    }
  });
});
