import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startAdminSocket } from '../src/admin/admin-socket.ts';
import { executeAdminRequest } from '../src/admin/execute-request.ts';
import { insertDomainBindings } from '../src/federation/federation-repository.ts';
import { upstreamProviderIdForDomain } from '../src/federation/home-realm.ts';
import { LOCK_FILE_NAME } from '../src/lock-file.ts';
import {
  addUpstreamProvider,
  bindUpstreamDomain,
  findUpstreamProvider,
  listUpstreamProviders,
  unbindUpstreamDomain,
} from '../src/provisioning/provider-operations.ts';
import { provisioningMailing } from '../src/provisioning/provisioning-mailing.ts';
import type { Db } from '../src/store/database.ts';
import { auditEvents, upstreamProviders } from '../src/store/tables/index.ts';
import { runAdmin } from './admin-harness.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { againstOpenTransaction } from './support/open-transaction.ts';

const testDb = useTestDatabase();
const deps = () => ({ db: testDb().db });
const SECRET = 'upstream-client-secret-value';

function provider(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Contoso staff',
    issuer: 'https://login.contoso.example',
    clientId: 'keycard',
    clientSecret: SECRET,
    domains: ['contoso.example'],
    ...overrides,
  };
}

describe('upstream providers (DESIGN §1 Federation)', () => {
  it('adds a provider with default scopes, binds its domains in lookup form, never shows the secret', async () => {
    const result = await addUpstreamProvider(
      deps(),
      provider({ domains: ['Fabrikam.Example', 'bücher.example', 'fabrikam.example'] }),
    );
    expect(result).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Contoso staff',
      issuer: 'https://login.contoso.example',
      clientId: 'keycard',
      scopes: ['openid', 'email', 'profile'],
      domains: ['fabrikam.example', 'xn--bcher-kva.example'],
    });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(await upstreamProviderIdForDomain(testDb().db, 'fabrikam.example')).toBe(result.id);
    const [row] = await testDb()
      .db.select()
      .from(upstreamProviders)
      .where(eq(upstreamProviders.id, result.id));
    expect(row?.clientSecret).toBe(SECRET);
    const audit = await testDb().db.select().from(auditEvents).where(eq(auditEvents.event, 'admin'));
    expect(JSON.stringify(audit)).not.toContain(SECRET);
    expect(audit.at(-1)?.detail).toMatchObject({ command: 'idp:add', providerId: result.id });
  });

  it('refuses a domain already bound to a provider as a conflict and adds nothing', async () => {
    await addUpstreamProvider(deps(), provider({ name: 'Holder', domains: ['held.example'] }));
    const before = await listUpstreamProviders(deps());
    const result = addUpstreamProvider(
      deps(),
      provider({ name: 'Second', domains: ['new.example', 'HELD.example'] }),
    );
    await expect(result).rejects.toMatchObject({ code: 'conflict', field: 'domains' });
    expect(await listUpstreamProviders(deps())).toEqual(before);
    expect(await upstreamProviderIdForDomain(testDb().db, 'new.example')).toBeNull();
  });

  it.each([
    ['issuer', { issuer: 'http://login.contoso.example' }],
    ['issuer', { issuer: 'https://login.contoso.example/?tenant=1' }],
    ['domains', { domains: [] }],
    ['domains', { domains: ['not a domain'] }],
    ['scopes', { scopes: ['email'] }],
    ['clientSecret', { clientSecret: '' }],
    ['name', { name: ' ' }],
  ])('refuses a bad %s as invalid_input naming the field', async (field, overrides) => {
    const result = addUpstreamProvider(deps(), provider(overrides));
    await expect(result).rejects.toMatchObject({ code: 'invalid_input', field });
  });

  it('refuses scopes without email, which the sign-in needs for the verified address, and adds nothing', async () => {
    const before = await listUpstreamProviders(deps());
    for (const scopes of [['openid'], ['openid', 'profile']]) {
      await expect(
        addUpstreamProvider(deps(), provider({ scopes, domains: ['no-email.example'] })),
      ).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'scopes',
        message: 'must include email: sign-in needs the e-mail address and email_verified claims',
      });
    }
    expect(await listUpstreamProviders(deps())).toEqual(before);
    const added = await addUpstreamProvider(
      deps(),
      provider({ scopes: ['openid', 'email'], domains: ['with-email.example'] }),
    );
    expect(added.scopes).toEqual(['openid', 'email']);
  });

  it('accepts plain http only on a loopback issuer', async () => {
    const result = await addUpstreamProvider(
      deps(),
      provider({ issuer: 'http://127.0.0.1:4100/oidc', domains: ['loopback.example'] }),
    );
    expect(result.issuer).toBe('http://127.0.0.1:4100/oidc');
  });

  it('binds, finds, lists and unbinds domains; unknown providers and foreign domains are refused', async () => {
    await addUpstreamProvider(deps(), provider({ name: 'Rival', domains: ['rival-bank.example'] }));
    const added = await addUpstreamProvider(
      deps(),
      provider({ name: 'Woodgrove', domains: ['woodgrove.example'] }),
    );
    const providerId = added.id;
    const bound = await bindUpstreamDomain(deps(), { providerId, domain: 'Woodgrove-Bank.example' });
    expect(bound.domains).toEqual(['woodgrove-bank.example', 'woodgrove.example']);
    // Binding again is a no-op; binding another provider's domain a conflict.
    expect(await bindUpstreamDomain(deps(), { providerId, domain: 'woodgrove.example' })).toEqual(bound);
    await expect(
      bindUpstreamDomain(deps(), { providerId, domain: 'rival-bank.example' }),
    ).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await findUpstreamProvider(deps(), { providerId })).toEqual(bound);
    const listed = await listUpstreamProviders(deps());
    expect(listed.providers.map((entry) => entry.name)).toContain('Woodgrove');

    const unbound = await unbindUpstreamDomain(deps(), { providerId, domain: 'woodgrove.example' });
    expect(unbound.domains).toEqual(['woodgrove-bank.example']);
    expect(await upstreamProviderIdForDomain(testDb().db, 'woodgrove.example')).toBeNull();
    await expect(
      unbindUpstreamDomain(deps(), { providerId, domain: 'woodgrove.example' }),
    ).rejects.toMatchObject({ code: 'not_found', field: 'domain' });

    const unknown = '00000000-0000-4000-8000-000000000000';
    // Each call starts only when the one before has settled: a refusal nobody awaits yet would be an
    // unhandled rejection.
    for (const call of [
      () => findUpstreamProvider(deps(), { providerId: unknown }),
      () => bindUpstreamDomain(deps(), { providerId: unknown, domain: 'x.example' }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'not_found' });
    }
    await expect(findUpstreamProvider(deps(), { providerId: 'nope' })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'providerId',
    });
  });
});

describe('idp:add', () => {
  /** The command registering `name` for its domains: each test names domains of its own. */
  const argsOf = (name: string, domains: string[]) => [
    'idp:add',
    '--name',
    name,
    '--issuer',
    `https://id.${domains[0]}`,
    '--client-id',
    'keycard-nw',
    '--client-secret-stdin',
    ...domains.flatMap((domain) => ['--domain', domain]),
  ];

  it('reads the secret from standard input and prints the GUID the SPA will receive', async () => {
    const args = argsOf('Northwind', ['northwind.example', 'nw.example']);
    const run = await runAdmin(args, { db: testDb().db, stdin: `${SECRET}\n` });
    expect(run).toMatchObject({ code: 0, stderr: '', stdinRead: true });
    const id = run.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(run.stdout).not.toContain(SECRET);
    expect(await upstreamProviderIdForDomain(testDb().db, 'nw.example')).toBe(id);
  });

  it('reports a domain bound elsewhere as a conflict (exit 1) and bad flags before reading stdin (exit 2)', async () => {
    const args = argsOf('Tailspin', ['tailspin.example', 'ts.example']);
    expect(await runAdmin(args, { db: testDb().db, stdin: SECRET })).toMatchObject({ code: 0 });
    const again = await runAdmin(args, { db: testDb().db, stdin: SECRET });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/tailspin\.example is already bound/);

    const bad = await runAdmin(
      [
        'idp:add',
        '--name',
        'X',
        '--issuer',
        'ftp://x',
        '--client-id',
        'c',
        '--client-secret-stdin',
        '--domain',
        'x.example',
      ],
      { db: testDb().db, stdin: SECRET },
    );
    expect(bad).toMatchObject({ code: 2, stdinRead: false });
    expect(bad.stderr).toMatch(/invalid --issuer/);

    const noSecret = await runAdmin(
      args.filter((arg) => arg !== '--client-secret-stdin'),
      { db: testDb().db },
    );
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/--client-secret-stdin/);
  });
});

describe('idp:add while the service holds the embedded database', () => {
  it('reaches the service through the admin socket, which registers the provider on its database', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-idp-'));
    // DATA_DIR held by a live process that is not this one, as a running service holds it.
    writeFileSync(path.join(dataDir, LOCK_FILE_NAME), `${process.ppid}\n`);
    const socket = await startAdminSocket({
      dataDir,
      db: testDb().db,
      mailing: provisioningMailing(testConfig()),
    });
    try {
      const run = await runAdmin(
        [
          'idp:add',
          '--name',
          'Litware',
          '--issuer',
          'https://id.litware.example',
          '--client-id',
          'kc',
          '--client-secret-stdin',
          '--domain',
          'litware.example',
          '--json',
        ],
        {
          env: { DATA_DIR: dataDir },
          stdin: SECRET,
          execute: (config, request) => executeAdminRequest(config, request, { waitMs: 400, pollMs: 50 }),
        },
      );
      expect(run.code).toBe(0);
      const answer = run.json();
      expect(answer).toMatchObject({ ok: true, via: 'service', result: { domains: ['litware.example'] } });
      expect(JSON.stringify(answer)).not.toContain(SECRET);
      const id = (answer.result as { id: string }).id;
      expect(await upstreamProviderIdForDomain(testDb().db, 'litware.example')).toBe(id);
    } finally {
      await socket.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * A binding racing another of the same domain. On PostgreSQL the two run on two connections and the
 * loser's insert meets the winner's row on the primary key; PGlite runs one transaction at a time, so
 * there the loser sees the winner's row first. Either way the answer is the one a binding already in
 * place gets: a conflict for another provider, a no-op for the same one, never a failure.
 */
describe('a domain bound twice at the same moment', () => {
  /** `contender`'s outcome while a transaction that bound `domain` to `winner` is held open. */
  function againstOpenBinding<T>(domain: string, winner: string, contender: () => Promise<T>) {
    const bind = (tx: Db) => insertDomainBindings(tx, [{ domain, providerId: winner }]);
    return againstOpenTransaction(testDb().db, bind, contender);
  }

  it('answers the second binding of a domain to another provider as a conflict naming the domain', async () => {
    const first = await addUpstreamProvider(
      deps(),
      provider({ name: 'First', domains: ['first-race.example'] }),
    );
    const second = await addUpstreamProvider(
      deps(),
      provider({ name: 'Second', domains: ['second-race.example'] }),
    );
    const bind = againstOpenBinding('contested.example', first.id, () =>
      bindUpstreamDomain(deps(), { providerId: second.id, domain: 'contested.example' }),
    );
    await expect(bind).rejects.toMatchObject({ code: 'conflict', field: 'domain' });
    const added = againstOpenBinding('claimed.example', first.id, () =>
      addUpstreamProvider(deps(), provider({ name: 'Third', domains: ['claimed.example'] })),
    );
    await expect(added).rejects.toMatchObject({ code: 'conflict', field: 'domains' });
    expect((await listUpstreamProviders(deps())).providers.map((listed) => listed.name)).not.toContain(
      'Third',
    );
    expect(await upstreamProviderIdForDomain(testDb().db, 'contested.example')).toBe(first.id);
  });

  it('answers the second binding of a domain to the same provider as the no-op a repeat is', async () => {
    const only = await addUpstreamProvider(
      deps(),
      provider({ name: 'Only', domains: ['only-race.example'] }),
    );
    const view = await againstOpenBinding('twice.example', only.id, () =>
      bindUpstreamDomain(deps(), { providerId: only.id, domain: 'twice.example' }),
    );
    expect(view.domains).toEqual(['only-race.example', 'twice.example']);
  });
});
