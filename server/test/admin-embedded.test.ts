import { existsSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findAccountByEmail } from '../src/accounts/account-repository.ts';
import { verifyPassword } from '../src/accounts/password-hash.ts';
import { type AdminSocket, startAdminSocket } from '../src/admin/admin-socket.ts';
import { executeAdminRequest } from '../src/admin/execute-request.ts';
import { adminSocketPath, thisProcess } from '../src/admin/socket-protocol.ts';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from '../src/lock-file.ts';
import { cliUserAgent } from '../src/provisioning/provisioning-deps.ts';
import { provisioningMailing } from '../src/provisioning/provisioning-mailing.ts';
import type { Database } from '../src/store/database.ts';
import { openDatabase, pgliteDirectory } from '../src/store/open-database.ts';
import { accounts, auditEvents, outbox } from '../src/store/tables/index.ts';
import { runAdmin } from './admin-harness.ts';
import { testConfig } from './support/app.ts';
import { appears } from './support/appears.ts';
import { openMigratedPglite } from './support/database.ts';

const PASSWORD = 'Correct-Horse-42';
const MAILING = provisioningMailing(testConfig());

/** The CLI as run by hand, but giving up on a busy DATA_DIR after `waitMs`. */
function cli(
  argv: string[],
  dataDir: string,
  { stdin, waitMs = 400, onWait }: { stdin?: string; waitMs?: number; onWait?: () => void } = {},
) {
  return runAdmin(argv, {
    env: { DATA_DIR: dataDir },
    stdin,
    execute: (config, request) => executeAdminRequest(config, request, { waitMs, pollMs: 50, onWait }),
  });
}

/** Where each admin row of `command` says the command came from. */
async function adminOrigins(database: Database, command: string) {
  const rows = await database.db.select().from(auditEvents).where(eq(auditEvents.event, 'admin'));
  return rows
    .filter((row) => row.detail?.command === command)
    .map((row) => ({ ip: row.ip, userAgent: row.userAgent }));
}

/** A service's claim on DATA_DIR by a process that is alive and is not this one. */
function lockAsAnotherProcess(dataDir: string): void {
  writeFileSync(path.join(dataDir, LOCK_FILE_NAME), `${process.ppid}\n`);
}

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-admin-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('admin CLI on the embedded database with no service running', () => {
  it('takes the DATA_DIR lock, runs the command on PGlite there and releases the lock', async () => {
    const locked = appears(dataDir, LOCK_FILE_NAME);
    const running = cli(
      ['user:add', '--email', 'ada@example.com', '--name', 'Ada L', '--password-stdin', '--json'],
      dataDir,
      {
        stdin: PASSWORD,
      },
    );
    // While the CLI works, a service starting on the same DATA_DIR is refused, as a second service is.
    await locked;
    expect(() => acquireDataDirLock(dataDir, { pid: process.ppid })).toThrow(DataDirLockedError);
    const run = await running;
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ ok: true, via: 'database', result: { hasPassword: true } });
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);

    const database = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
    try {
      const account = await findAccountByEmail(database.db, 'ada@example.com');
      expect(await verifyPassword(account?.passwordHash ?? null, PASSWORD)).toBe(true);
      // The audit row names where the command came from: this process, on the database it opened.
      expect(await adminOrigins(database, 'user:add')).toEqual([
        { ip: 'local process', userAgent: cliUserAgent(thisProcess()) },
      ]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('finds an account keyed before its domain was keyed in IDNA ASCII form by the spelling a browser sends', async () => {
    const added = await cli(
      ['user:add', '--email', 'Ada@Bücher.example', '--name', 'Ada L', '--json'],
      dataDir,
    );
    expect(added.code).toBe(0);
    // The account's key as an earlier version wrote it.
    const before = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
    try {
      const keyed = await before.db
        .update(accounts)
        .set({ emailNormalized: 'ada@bücher.example' })
        .where(eq(accounts.email, 'Ada@Bücher.example'))
        .returning({ id: accounts.id });
      expect(keyed).toHaveLength(1);
    } finally {
      await before.close();
    }

    const run = await cli(['user:disable', '--email', 'ada@xn--bcher-kva.example', '--json'], dataDir);
    expect(run.code).toBe(0);
    const database = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
    try {
      const account = await findAccountByEmail(database.db, 'Ada@Bücher.example');
      expect(account?.emailNormalized).toBe('ada@xn--bcher-kva.example');
      expect(account?.disabledAt).not.toBeNull();
    } finally {
      await database.close();
    }
  }, 60_000);

  it('refuses, changing nothing, while another live process holds DATA_DIR without an admin socket', async () => {
    lockAsAnotherProcess(dataDir);
    // A socket file left by a crashed service: nobody listens on it.
    writeFileSync(adminSocketPath(dataDir), '');
    const run = await cli(['user:disable', '--email', 'ada@example.com'], dataDir);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `admin: the data directory ${dataDir} is in use by process ${process.ppid}, which does not take admin commands ` +
        '(another admin command, or a Keycard without the admin socket); nothing was changed, try again\n',
    );
    expect(existsSync(pgliteDirectory(dataDir))).toBe(false);
  });
});

describe('admin CLI while the service holds the embedded database', () => {
  let database: Database;
  let socket: AdminSocket | undefined;
  beforeAll(async () => {
    database = await openMigratedPglite();
  });
  afterAll(() => database.close());
  afterEach(async () => {
    await socket?.close();
    socket = undefined;
  });

  it('sends the command over the admin socket; the service runs it on its own database', async () => {
    lockAsAnotherProcess(dataDir);
    socket = await startAdminSocket({ dataDir, db: database.db, mailing: MAILING });
    expect(statSync(socket.path).mode & 0o777).toBe(0o600);

    const run = await cli(
      ['user:add', '--email', 'grace@example.com', '--name', 'Grace H', '--password-stdin', '--json'],
      dataDir,
      {
        stdin: `${PASSWORD}\n`,
      },
    );
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({
      ok: true,
      via: 'service',
      result: { account: { email: 'grace@example.com' } },
    });
    const account = await findAccountByEmail(database.db, 'grace@example.com');
    expect(await verifyPassword(account?.passwordHash ?? null, PASSWORD)).toBe(true);
    // The CLI never opened the data directory's database: the service's is the only one.
    expect(existsSync(pgliteDirectory(dataDir))).toBe(false);
    // The audit row names the socket and the CLI's process user, host and pid as it reported them.
    expect(await adminOrigins(database, 'user:add')).toContainEqual({
      ip: 'local socket',
      userAgent: cliUserAgent(thisProcess()),
    });

    const duplicate = await cli(['user:add', '--email', 'GRACE@example.com', '--name', 'Grace H'], dataDir);
    expect(duplicate).toMatchObject({
      code: 1,
      stderr: 'admin: an account with the e-mail GRACE@example.com already exists\n',
    });
    const unknown = await cli(['user:unlock', '--email', 'nobody@example.com'], dataDir);
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'admin: no account with the e-mail nobody@example.com\n',
    });
  });

  it('adds, changes and shows a client over the admin socket, its new secret never in the output', async () => {
    lockAsAnotherProcess(dataDir);
    socket = await startAdminSocket({ dataDir, db: database.db, mailing: MAILING });
    const added = await cli(
      [
        'client:add',
        '--id',
        'socketed',
        '--name',
        'Socketed',
        '--redirect-uri',
        'https://socketed.example/cb',
      ],
      dataDir,
    );
    expect(added.code).toBe(0);
    const secret = 'socketed-secret-0123456789abcdefghijkl';
    const changed = await cli(
      [
        'client:update',
        '--id',
        'socketed',
        '--redirect-uri',
        'https://socketed.example/callback',
        '--secret-stdin',
        '--json',
      ],
      dataDir,
      { stdin: `${secret}\n` },
    );
    expect(changed.json()).toMatchObject({
      ok: true,
      via: 'service',
      result: { kind: 'confidential', redirectUris: ['https://socketed.example/callback'] },
    });
    expect(changed.stdout).not.toContain(secret);
    expect(await adminOrigins(database, 'client:update')).toContainEqual({
      ip: 'local socket',
      userAgent: cliUserAgent(thisProcess()),
    });
    const shown = await cli(['client:show', '--id', 'socketed'], dataDir);
    expect(shown.stdout).toMatch(/^confidential client socketed \("Socketed", PKCE\) with 1 redirect URI/);
    // The CLI never opened the data directory's database: the service ran all three.
    expect(existsSync(pgliteDirectory(dataDir))).toBe(false);
  });

  it('queues the mail of user:invite and user:change-email in the service and wakes its worker', async () => {
    lockAsAnotherProcess(dataDir);
    let nudges = 0;
    const mailing = provisioningMailing(testConfig(), () => {
      nudges += 1;
    });
    socket = await startAdminSocket({ dataDir, db: database.db, mailing });
    const added = await cli(['user:add', '--email', 'invitee@example.com', '--name', 'In Vitee'], dataDir);
    expect(added).toMatchObject({ code: 0 });
    const again = await cli(['user:invite', '--email', 'invitee@example.com'], dataDir);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toMatch(
      /^queued an invitation to invitee@example.com; its link sets the first password/,
    );
    const mover = ['user:add', '--email', 'mover@example.com', '--name', 'Mo Ver', '--password-stdin'];
    expect(await cli(mover, dataDir, { stdin: `${PASSWORD}\n` })).toMatchObject({ code: 0 });
    const moved = await cli(
      ['user:change-email', '--email', 'mover@example.com', '--new-email', 'mo.ver@example.com'],
      dataDir,
    );
    expect(moved).toMatchObject({ code: 0 });
    const rows = await database.db.select().from(outbox).orderBy(outbox.createdAt);
    expect(rows.map((row) => [row.kind, row.recipient])).toEqual(
      expect.arrayContaining([
        ['invitation', 'invitee@example.com'],
        ['email_change_confirm', 'mo.ver@example.com'],
        ['email_change_notice', 'mover@example.com'],
      ]),
    );
    // Other tests of this database add accounts without a password too: count this test's invitee's.
    expect(
      rows.filter((row) => row.kind === 'invitation' && row.recipient === 'invitee@example.com'),
    ).toHaveLength(2);
    expect(nudges).toBe(3);
  });

  it('waits for a service that is still starting and then routes the command to it', async () => {
    lockAsAnotherProcess(dataDir);
    let waiting = () => {};
    const startedWaiting = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const run = cli(['user:add', '--email', 'late@example.com', '--name', 'Late Comer'], dataDir, {
      waitMs: 10_000,
      onWait: () => waiting(),
    });
    // The service comes up only once the CLI found it missing and started waiting for it.
    await startedWaiting;
    socket = await startAdminSocket({ dataDir, db: database.db, mailing: MAILING });
    expect((await run).code).toBe(0);
    expect(await findAccountByEmail(database.db, 'late@example.com')).not.toBeNull();
  });

  it('replaces a stale socket file and removes its own at close', async () => {
    writeFileSync(adminSocketPath(dataDir), 'stale');
    const started = await startAdminSocket({ dataDir, db: database.db, mailing: MAILING });
    expect(statSync(started.path).isSocket()).toBe(true);
    await started.close();
    expect(existsSync(started.path)).toBe(false);
  });
});

describe('admin socket: only valid requests run', () => {
  let database: Database;
  let socket: AdminSocket;
  beforeAll(async () => {
    database = await openMigratedPglite();
  });
  beforeEach(async () => {
    socket = await startAdminSocket({ dataDir, db: database.db, mailing: MAILING });
  });
  afterEach(() => socket.close());
  afterAll(() => database.close());

  function exchange(payload: string | Buffer): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const connection = createConnection(socket.path);
      let answer = '';
      connection.on('data', (chunk) => (answer += chunk.toString()));
      connection.on('end', () => resolve(JSON.parse(answer)));
      connection.on('error', reject);
      connection.write(payload);
    });
  }

  const add = { command: 'user:add', input: { email: 'sock@example.com', name: 'So Ck' } };

  it.each([
    ['not JSON', 'hello\n', 'request is not JSON'],
    ['no version', `${JSON.stringify(add)}\n`, 'unsupported protocol version'],
    ['a newer version', `${JSON.stringify({ version: 2, ...add })}\n`, 'unsupported protocol version'],
    [
      'an unknown command',
      `${JSON.stringify({ version: 1, command: 'db:drop', input: {} })}\n`,
      /^command: /,
    ],
    ['an extra key', `${JSON.stringify({ version: 1, ...add, as: 'root' })}\n`, /Unrecognized key/],
    ['an oversized line', `${'x'.repeat(70_000)}\n`, 'request too large'],
    [
      'a malformed caller',
      `${JSON.stringify({ version: 1, caller: { user: 7, host: 'h', pid: 1 }, ...add })}\n`,
      /expected string, received number/,
    ],
  ])('refuses %s', async (_name, payload, message) => {
    const answer = await exchange(payload);
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringMatching(message) },
    });
    expect(await findAccountByEmail(database.db, 'sock@example.com')).toBeNull();
  });

  it('answers invalid input with the field, and refuses unknown input keys', async () => {
    const bad = { version: 1, command: 'user:add', input: { email: 'nope', name: 'X' } };
    expect(await exchange(`${JSON.stringify(bad)}\n`)).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        field: 'email',
        message: 'must be an e-mail address such as ada@example.com',
      },
    });
    const extra = { version: 1, command: 'user:add', input: { ...add.input, admin: true } };
    expect(await exchange(`${JSON.stringify(extra)}\n`)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await findAccountByEmail(database.db, 'sock@example.com')).toBeNull();
  });

  it('runs a valid request and answers its result', async () => {
    // Its own address: the refusals check that sock@example.com was never created.
    const valid = { ...add, input: { ...add.input, email: 'sock.valid@example.com' } };
    const answer = await exchange(`${JSON.stringify({ version: 1, ...valid })}\n`);
    expect(answer).toMatchObject({
      ok: true,
      value: { account: { email: 'sock.valid@example.com' }, hasPassword: false },
    });
  });
});

describe('admin CLI when an operation fails unexpectedly', () => {
  const SECRET = 'k3Y-secret-0123456789abcdefghijklmnop';
  const argv = [
    'client:add',
    '--id',
    'broken',
    '--name',
    'Broken',
    '--redirect-uri',
    'https://b.example/cb',
    '--secret-stdin',
  ];
  let database: Database;
  beforeAll(async () => {
    database = await openMigratedPglite();
    // The insert now fails inside drizzle, whose error text lists the query's parameters.
    await database.db.execute(sql`drop table oidc_client`);
  });
  afterAll(() => database.close());

  it('reports the database error in one line without the secret, in-process', async () => {
    const run = await runAdmin(argv, { db: database.db, stdin: SECRET });
    expect(run).toMatchObject({ code: 1, stderr: 'admin: failed: relation "oidc_client" does not exist\n' });
  });

  it('reports it through the socket, and logs it in the service, without the secret', async () => {
    lockAsAnotherProcess(dataDir);
    const logged: string[] = [];
    const socket = await startAdminSocket({
      dataDir,
      db: database.db,
      mailing: MAILING,
      onError: (message) => logged.push(message),
    });
    try {
      const run = await cli(argv, dataDir, { stdin: SECRET });
      expect(run).toMatchObject({
        code: 1,
        stderr: 'admin: client:add failed in the running service: relation "oidc_client" does not exist\n',
      });
      expect(logged).toEqual(['admin command client:add failed: relation "oidc_client" does not exist']);
    } finally {
      await socket.close();
    }
  });
});
