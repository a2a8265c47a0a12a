import { clientView } from '@keycard/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oidcClients } from '../src/store/tables/index.ts';
import {
  ADMIN_CLIENT,
  ADMIN_SECRET,
  adminCall,
  adminEvents,
  adminToken,
  authorizationAnswer,
  registerAdminClient,
  requestToken,
  useAdminApi,
} from './admin-api-kit.ts';

const SECRET = 'booking-secret-0123456789abcdefghijklm';

const { service, api } = useAdminApi();
const app = () => service().app;
const db = () => service().db;

const authorizeAnswer = (clientId: string, redirectUri: string) =>
  authorizationAnswer(app(), clientId, redirectUri);

describe('back-channel logout URI through the admin API', () => {
  it("registers, shows, hands the provider and removes a client's back-channel logout URI", async () => {
    const created = await api('POST', '/clients', {
      id: 'listening',
      name: 'Listening',
      redirectUris: ['https://listening.example/cb'],
      backchannelLogoutUri: 'https://listening.example/backchannel-logout',
      backchannelLogoutSessionRequired: true,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      backchannelLogoutUri: 'https://listening.example/backchannel-logout',
      backchannelLogoutSessionRequired: true,
    });
    const client = await service().app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
    });
    expect(client.json()).toMatchObject({ backchannel_logout_supported: true });
    const [row] = await db().select().from(oidcClients).where(eq(oidcClients.clientId, 'listening'));
    expect(row?.backchannelLogoutUri).toBe('https://listening.example/backchannel-logout');

    const removed = await api('PATCH', '/clients/listening', { backchannelLogoutUri: null });
    expect(removed.json()).toMatchObject({ backchannelLogoutUri: null });
  });

  it('takes a plain-http back-channel logout URI off loopback from a confidential client only (Back-Channel Logout 1.0 §2.2)', async () => {
    const uri = 'http://plain.example/backchannel-logout';
    for (const given of [uri, uri.replace('http:', 'HTTP:')]) {
      const refused = await api('POST', '/clients', {
        id: 'plain-public',
        name: 'Plain Public',
        redirectUris: ['https://plain.example/cb'],
        backchannelLogoutUri: given,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'invalid_input', field: 'backchannelLogoutUri' });
    }
    const confidential = await api('POST', '/clients', {
      id: 'plain-confidential',
      name: 'Plain Confidential',
      redirectUris: ['https://plain.example/cb'],
      secret: 'a-secret-of-thirty-two-characters-or-more',
      backchannelLogoutUri: uri,
    });
    expect(confidential.statusCode).toBe(201);
    // Made public later, it must give the URI up first.
    const madePublic = await api('PATCH', '/clients/plain-confidential', { secret: null });
    expect(madePublic.json()).toMatchObject({ field: 'backchannelLogoutUri' });
    // On loopback the tokens never leave the machine: an application in development may listen so.
    const loopback = await api('POST', '/clients', {
      id: 'loopback-public',
      name: 'Loopback Public',
      redirectUris: ['http://127.0.0.1:8765/cb'],
      backchannelLogoutUri: 'http://127.0.0.1:8765/backchannel-logout',
    });
    expect(loopback.statusCode).toBe(201);
  });

  it('refuses a plain-http redirect URI off loopback, public or confidential, and takes one on loopback', async () => {
    for (const secret of [undefined, 'a-secret-of-thirty-two-characters-or-more']) {
      const refused = await api('POST', '/clients', {
        id: secret ? 'clear-confidential' : 'clear-public',
        name: 'In Clear',
        redirectUris: [
          'https://clear.example/cb',
          secret ? 'http://clear.example/cb' : 'HTTP://clear.example/cb',
        ],
        ...(secret ? { secret } : {}),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'invalid_input', field: 'redirectUris' });
    }
    for (const [id, uri] of [
      ['on-localhost', 'http://localhost:8765/cb'],
      ['on-ipv6-loopback', 'http://[::1]:8765/cb'],
      ['on-mapped-loopback', 'http://[::ffff:127.0.0.1]:8765/cb'],
    ]) {
      const taken = await api('POST', '/clients', { id, name: 'Loopback', redirectUris: [uri] });
      expect(taken.statusCode).toBe(201);
    }
    // An IPv4 address written as IPv6 is judged as the IPv4 one.
    const mapped = await api('POST', '/clients', {
      id: 'on-mapped-private',
      name: 'Mapped',
      redirectUris: ['http://[::ffff:10.0.0.1]:8765/cb'],
    });
    expect(mapped.json()).toMatchObject({ code: 'invalid_input', field: 'redirectUris' });
    // Changed later to one in clear: refused, and the registration stays as it was.
    const changed = await api('PATCH', '/clients/on-localhost', { redirectUris: ['http://app.example/cb'] });
    expect(changed.json()).toMatchObject({ code: 'invalid_input', field: 'redirectUris' });
    expect((await api('GET', '/clients/on-localhost')).json()).toMatchObject({
      redirectUris: ['http://localhost:8765/cb'],
    });
  });

  it('refuses a back-channel logout URI with a fragment (400 naming the field)', async () => {
    const refused = await api('POST', '/clients', {
      id: 'fragmented',
      name: 'Fragmented',
      redirectUris: ['https://fragmented.example/cb'],
      backchannelLogoutUri: 'https://fragmented.example/logout#x',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_input', field: 'backchannelLogoutUri' });
  });
});

describe('POST /admin/api/clients', () => {
  it('registers a public client (201) that the provider then sends to the sign-in page with its product name', async () => {
    const created = await api('POST', '/clients', {
      id: 'booking',
      name: 'Booking',
      redirectUris: ['https://booking.example/cb'],
      postLogoutUris: ['https://booking.example/bye'],
    });
    expect(created.statusCode).toBe(201);
    expect(clientView.parse(created.json())).toEqual({
      clientId: 'booking',
      productName: 'Booking',
      kind: 'public',
      admin: false,
      accessTokenFormat: 'jwt',
      redirectUris: ['https://booking.example/cb'],
      postLogoutRedirectUris: ['https://booking.example/bye'],
      grantTypes: ['authorization_code'],
      scopes: ['openid', 'email', 'profile'],
      tokenEndpointAuthMethod: 'none',
      jwks: null,
      jwksUri: null,
      requirePkce: true,
      idTokenSignedResponseAlg: null,
      backchannelLogoutUri: null,
      backchannelLogoutSessionRequired: false,
    });
    const answer = await authorizeAnswer('booking', 'https://booking.example/cb');
    expect(answer.status).toBe(303);
    expect(decodeURIComponent(answer.location)).toContain('product=Booking');
    expect(await adminEvents(db(), 'client:add')).toContainEqual(
      expect.objectContaining({
        detail: expect.objectContaining({ clientId: 'booking', actor: ADMIN_CLIENT }),
      }),
    );
  });

  it('answers 409 for a taken id and 400 naming the field for bad URIs, secrets and the admin flag', async () => {
    const first = await api('POST', '/clients', {
      id: 'booked',
      name: 'Booked',
      redirectUris: ['https://booked.example/cb'],
    });
    expect(first.statusCode).toBe(201);
    const taken = await api('POST', '/clients', {
      id: 'booked',
      name: 'Again',
      redirectUris: ['https://x.example/cb'],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'conflict', field: 'id' });
    const fragment = await api('POST', '/clients', {
      id: 'fragment',
      name: 'Fragment',
      redirectUris: ['https://x.example/cb#frag'],
    });
    expect(fragment.statusCode).toBe(400);
    expect(fragment.json()).toMatchObject({ code: 'invalid_input', field: 'redirectUris.0' });
    const none = await api('POST', '/clients', { id: 'nouris', name: 'No URIs', redirectUris: [] });
    expect(none.json()).toMatchObject({ code: 'invalid_input', field: 'redirectUris' });
    const weak = await api('POST', '/clients', {
      id: 'weak',
      name: 'Weak',
      redirectUris: ['https://x.example/cb'],
      secret: 'short',
    });
    expect(weak.json()).toMatchObject({ code: 'invalid_input', field: 'secret' });
    expect(weak.body).not.toContain('short');
    // A token of the admin API cannot mint further admin clients: only the CLI can.
    const admin = await api('POST', '/clients', {
      id: 'sneaky',
      name: 'Sneaky',
      redirectUris: ['https://x.example/cb'],
      admin: true,
    });
    expect(admin.json()).toMatchObject({ code: 'invalid_input', field: 'admin' });
    const rows = await db().select().from(oidcClients).where(eq(oidcClients.clientId, 'sneaky'));
    expect(rows).toHaveLength(0);
  });
});

describe('PATCH /admin/api/clients/{id}', () => {
  it('changes product name and URIs: the provider honours the new redirect URI, not the old one', async () => {
    await api('POST', '/clients', { id: 'moving', name: 'Moving', redirectUris: ['https://old.example/cb'] });
    const updated = await api('PATCH', '/clients/moving', {
      name: 'Moved',
      redirectUris: ['https://new.example/cb'],
      postLogoutUris: ['https://new.example/bye'],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      productName: 'Moved',
      redirectUris: ['https://new.example/cb'],
      postLogoutRedirectUris: ['https://new.example/bye'],
    });
    const accepted = await authorizeAnswer('moving', 'https://new.example/cb');
    expect(accepted.status).toBe(303);
    expect(decodeURIComponent(accepted.location)).toContain('product=Moved');
    const refused = await authorizeAnswer('moving', 'https://old.example/cb');
    // The error page, with the reference of the refusal's log line.
    expect(refused.location).toMatch(/^\/error\/[0-9A-Z]{8}$/);
    expect(await adminEvents(db(), 'client:update')).toContainEqual(
      expect.objectContaining({
        detail: {
          command: 'client:update',
          clientId: 'moving',
          changed: 'productName,redirectUris,postLogoutRedirectUris',
          actor: ADMIN_CLIENT,
        },
      }),
    );
  });

  it('sets and clears a secret: confidential, then public again; the secret never appears', async () => {
    await api('POST', '/clients', {
      id: 'secretive',
      name: 'Secretive',
      redirectUris: ['https://s.example/cb'],
    });
    const confidential = await api('PATCH', '/clients/secretive', { secret: SECRET });
    expect(confidential.json()).toMatchObject({ kind: 'confidential' });
    expect(confidential.body).not.toContain(SECRET);
    const [row] = await db().select().from(oidcClients).where(eq(oidcClients.clientId, 'secretive'));
    expect(row?.clientSecret).toBe(SECRET);
    expect(JSON.stringify(await adminEvents(db(), 'client:update'))).not.toContain(SECRET);
    const open = await api('PATCH', '/clients/secretive', { secret: null });
    expect(open.json()).toMatchObject({ kind: 'public' });
  });

  it('answers 404 for an unknown client and 400 naming the field for bad values', async () => {
    // A client of its own, so the bad values meet a registration that exists.
    const patched = await api('POST', '/clients', {
      id: 'patched',
      name: 'Patched',
      redirectUris: ['https://p.example/cb'],
    });
    expect(patched.statusCode).toBe(201);
    const unknown = await api('PATCH', '/clients/nobody-here', { name: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
    const badUri = await api('PATCH', '/clients/patched', { postLogoutUris: ['javascript:alert(1)'] });
    expect(badUri.statusCode).toBe(400);
    expect(badUri.json()).toMatchObject({ code: 'invalid_input', field: 'postLogoutUris.0' });
    const badId = await api('PATCH', '/clients/a', { name: 'X' });
    expect(badId.json()).toMatchObject({ code: 'invalid_input', field: 'id' });
    const unknownField = await api('PATCH', '/clients/patched', { colour: 'blue' });
    expect(unknownField.json()).toMatchObject({ code: 'invalid_input', field: 'colour' });
  });

  it('keeps an admin client confidential and without redirect URIs; a new secret ends its tokens', async () => {
    await registerAdminClient(db(), 'rotating-console', ADMIN_SECRET);
    const old = await adminToken(app(), { clientId: 'rotating-console' });
    const open = await api('PATCH', '/clients/rotating-console', { secret: null });
    expect(open.json()).toMatchObject({ code: 'invalid_input', field: 'secret' });
    const uris = await api('PATCH', '/clients/rotating-console', { redirectUris: ['https://x.example/cb'] });
    expect(uris.json()).toMatchObject({ code: 'invalid_input', field: 'redirectUris' });

    const rotated = await api('PATCH', '/clients/rotating-console', { secret: SECRET });
    expect(rotated.json()).toMatchObject({ kind: 'confidential', admin: true });
    expect((await adminCall(app(), old.access_token, 'GET', '/users?email=a@example.com')).statusCode).toBe(
      401,
    );
    expect(
      (await requestToken(app(), { clientId: 'rotating-console', secret: ADMIN_SECRET })).statusCode,
    ).toBe(401);
    const fresh = await adminToken(app(), { clientId: 'rotating-console', secret: SECRET });
    expect((await adminCall(app(), fresh.access_token, 'GET', '/users?email=a@example.com')).statusCode).toBe(
      404,
    );
  });
});
