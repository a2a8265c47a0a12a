import { and, eq, gte } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../src/store/tables/index.ts';
import { adminToken, useAdminApi } from './admin-api-kit.ts';
import { STRONG } from './recovery-kit.ts';

const { service } = useAdminApi();
const app = () => service().app;

const ADDRESS = '198.51.100.23';
const AGENT = 'ops-console/2.4 (+https://ops.example/console)';

/** An admin API call from a known address with a known User-Agent. */
async function call(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const { access_token } = await adminToken(app());
  const response: LightMyRequestResponse = await app().inject({
    method,
    url: `/admin/api${url}`,
    remoteAddress: ADDRESS,
    headers: { authorization: `Bearer ${access_token}`, 'user-agent': AGENT },
    ...(payload === undefined ? {} : { payload }),
  });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response;
}

describe("the caller's address and User-Agent in every admin audit row (admin API)", () => {
  it('records both for each kind of admin command', async () => {
    // The set-up registered the admin client without a door of its own: rows from here on count.
    const before = await service().db.select().from(auditEvents);
    const firstId = Math.max(0, ...before.map((row) => row.id)) + 1;
    const created = await call('POST', '/users', {
      email: 'origin@example.com',
      name: 'Origin',
      password: STRONG,
    });
    const { id } = created.json<{ account: { id: string } }>().account;
    for (const action of ['expire-password', 'unlock', 'disable', 'enable'])
      await call('POST', `/users/${id}/${action}`);
    await call('POST', '/clients', {
      id: 'origin-app',
      name: 'Origin',
      redirectUris: ['https://origin.example/cb'],
    });
    await call('PATCH', '/clients/origin-app', { name: 'Origin Two' });
    await call('POST', '/signing-keys/rotate', {});
    await call('POST', `/users/${id}/change-email`, { newEmail: 'origin-new@example.com' });
    await call('DELETE', `/users/${id}`);
    const invited = await call('POST', '/users', { email: 'invited@example.com', name: 'Invited' });
    await call('POST', `/users/${invited.json<{ account: { id: string } }>().account.id}/invite`);
    await call('DELETE', '/clients/origin-app');
    const resource = `/resource-servers/${encodeURIComponent('https://origin-api.example/')}`;
    await call('POST', '/resource-servers', {
      identifier: 'https://origin-api.example/',
      scopes: ['o:read'],
    });
    await call('PATCH', resource, { accessTokenTtl: 60 });
    await call('DELETE', resource);
    const provider = await call('POST', '/upstream-providers', {
      name: 'Origin IdP',
      issuer: 'https://login.origin-idp.example',
      clientId: 'keycard',
      clientSecret: 'origin-upstream-secret-0123456789',
      domains: ['origin-idp.example'],
    });
    const providerPath = `/upstream-providers/${provider.json<{ id: string }>().id}`;
    await call('PUT', `${providerPath}/domains/second.origin-idp.example`);
    await call('DELETE', `${providerPath}/domains/second.origin-idp.example`);

    const rows = await service()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'admin'), gte(auditEvents.id, firstId)));
    const commands = rows.map((row) => String(row.detail?.command));
    expect(commands).toEqual(
      expect.arrayContaining([
        'user:add',
        'user:expire-password',
        'user:unlock',
        'user:disable',
        'user:enable',
        'client:add',
        'client:update',
        'keys:rotate',
        'user:change-email',
        'user:delete',
        'user:invite',
        'client:remove',
        'resource:add',
        'resource:update',
        'resource:remove',
        'idp:add',
        'idp:bind-domain',
        'idp:unbind-domain',
      ]),
    );
    for (const row of rows) {
      expect({ command: row.detail?.command, ip: row.ip, userAgent: row.userAgent }).toEqual({
        command: row.detail?.command,
        ip: ADDRESS,
        userAgent: AGENT,
      });
    }
    // The security event an admin unlock causes names the caller too.
    const [unlock] = await service().db.select().from(auditEvents).where(eq(auditEvents.event, 'unlock'));
    expect(unlock).toMatchObject({ ip: ADDRESS, userAgent: AGENT });
  });

  it('keeps a long User-Agent to its first 256 characters', async () => {
    const { access_token } = await adminToken(app());
    const long = `agent/${'x'.repeat(600)}`;
    const response = await app().inject({
      method: 'POST',
      url: '/admin/api/users',
      remoteAddress: ADDRESS,
      headers: { authorization: `Bearer ${access_token}`, 'user-agent': long },
      payload: { email: 'long-agent@example.com', name: 'Long', password: STRONG },
    });
    expect(response.statusCode).toBe(201);
    const rows = await service().db.select().from(auditEvents).where(eq(auditEvents.event, 'admin'));
    expect(rows.at(-1)?.userAgent).toBe(long.slice(0, 256));
  });
});
