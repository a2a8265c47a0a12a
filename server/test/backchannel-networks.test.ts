import { beforeEach, describe, expect, it } from 'vitest';
import { logoutTokensOf } from '../src/backchannel/backchannel-repository.ts';
import { listFailedLogouts } from '../src/backchannel/failed-logouts.ts';
import { manualClock } from '../src/store/clock.ts';
import {
  registerConfidentialClient,
  relyingParty,
  signInThrough,
} from './support/confidential-relying-party.ts';
import { LogoutReceiver } from './support/logout-receiver.ts';
import { type TestService, useTestService } from './support/test-service.ts';

// A logout token is posted only to a public address, or to one of BACKCHANNEL_PRIVATE_NETWORKS: an
// admin client that registers http://169.254.169.254/… or http://10.0.0.5:9200/… must not make the
// service send requests inside its own network. These relying parties listen on loopback addresses,
// which is as private as an address gets, with the networks set around them.

/** A person signs in through `clientId` and out again; the worker then makes one pass. */
async function signOutThrough(service: TestService, clientId: string): Promise<number> {
  const { tokens, browser } = await signInThrough(service, await relyingParty(service.app, clientId));
  const end = await browser.get(
    `/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token ?? '' })}`,
  );
  const logoutId = new URL(String(end.headers.location), 'http://localhost:3000').searchParams.get(
    'logoutId',
  );
  expect((await browser.post('/api/Logout', { logoutId })).statusCode).toBe(200);
  return service.app.logouts.runOnce();
}

/** The logout tokens of `clientId` given up, with their attempts and last error. */
async function givenUp(service: TestService, clientId: string) {
  const failed = await listFailedLogouts(service.db);
  return failed.filter((logout) => logout.clientId === clientId);
}

describe('with BACKCHANNEL_PRIVATE_NETWORKS naming one address (127.0.0.1)', () => {
  const listed = new LogoutReceiver('127.0.0.1');
  const neighbour = new LogoutReceiver('127.0.0.2');
  const redirecting = new LogoutReceiver('127.0.0.1');
  const service = useTestService({
    clock: manualClock(),
    env: { BACKCHANNEL_PRIVATE_NETWORKS: '127.0.0.1' },
    setUp: async ({ db }) => {
      await registerConfidentialClient(db, 'listed', { backchannelLogoutUri: await listed.listen() });
      await registerConfidentialClient(db, 'by-name', {
        backchannelLogoutUri: await listed.listen('localhost'),
      });
      await registerConfidentialClient(db, 'neighbour', {
        backchannelLogoutUri: await neighbour.listen(),
      });
      await registerConfidentialClient(db, 'redirecting', {
        backchannelLogoutUri: await redirecting.listen(),
      });
      await registerConfidentialClient(db, 'mapped', {
        backchannelLogoutUri: await neighbour.listen('[::ffff:127.0.0.2]'),
      });
    },
    tearDown: async () => {
      await listed.close();
      await neighbour.close();
      await redirecting.close();
    },
  });

  // Each test counts only the posts of its own sign-out.
  beforeEach(() => {
    for (const receiver of [listed, neighbour, redirecting]) receiver.received.length = 0;
  });

  it('posts to the address the networks name', async () => {
    expect(await signOutThrough(service(), 'listed')).toBe(1);
    expect(listed.tokens()).toHaveLength(1);
    expect(await givenUp(service(), 'listed')).toEqual([]);
  });

  it('posts to a name through the address of it the networks name', async () => {
    // localhost is 127.0.0.1 (and ::1, which the networks leave out, so it is not tried).
    expect(await signOutThrough(service(), 'by-name')).toBe(1);
    expect(listed.tokens()).toHaveLength(1);
  });

  it('never connects to a loopback address next to it (127.0.0.2), and gives up at the first attempt', async () => {
    expect(await signOutThrough(service(), 'neighbour')).toBe(1);
    expect(neighbour.received).toEqual([]);
    const [failed] = await givenUp(service(), 'neighbour');
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastError).toContain(
      '127.0.0.2 is not a public address and no network of BACKCHANNEL_PRIVATE_NETWORKS names it',
    );
  });

  it('follows no redirect, not even to an address the networks name (§2.8), and tries again later', async () => {
    redirecting.status = 307;
    redirecting.location = await listed.listen();
    expect(await signOutThrough(service(), 'redirecting')).toBe(1);
    expect(redirecting.received).toHaveLength(1);
    expect(listed.received).toEqual([]);
    const [row] = await logoutTokensOf(service().db, 'redirecting');
    expect(row).toMatchObject({ attempts: 1, deliveredAt: null, failedAt: null });
    expect(row?.lastError).toContain('answered 307');
  });

  it('takes an IPv4 address written as IPv6 (::ffff:127.0.0.2) for the IPv4 address it is', async () => {
    expect(await signOutThrough(service(), 'mapped')).toBe(1);
    expect(neighbour.received).toEqual([]);
    const [failed] = await givenUp(service(), 'mapped');
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastError).toContain('not a public address');
  });
});

describe('with BACKCHANNEL_PRIVATE_NETWORKS=none (production’s default)', () => {
  const receiver = new LogoutReceiver();
  const service = useTestService({
    clock: manualClock(),
    env: { BACKCHANNEL_PRIVATE_NETWORKS: 'none' },
    setUp: async ({ db }) => {
      await registerConfidentialClient(db, 'by-address', { backchannelLogoutUri: await receiver.listen() });
      await registerConfidentialClient(db, 'by-name', {
        backchannelLogoutUri: await receiver.listen('localhost'),
      });
    },
    tearDown: () => receiver.close(),
  });

  it('posts nothing to a loopback address, and gives up at the first attempt naming the setting', async () => {
    expect(await signOutThrough(service(), 'by-address')).toBe(1);
    expect(receiver.received).toEqual([]);
    const [failed] = await givenUp(service(), 'by-address');
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastError).toContain(
      '127.0.0.1 is not a public address and no network of BACKCHANNEL_PRIVATE_NETWORKS names it',
    );
  });

  it('posts nothing to a name that resolves to loopback addresses only, saying where it led', async () => {
    expect(await signOutThrough(service(), 'by-name')).toBe(1);
    expect(receiver.received).toEqual([]);
    const [failed] = await givenUp(service(), 'by-name');
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastError).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), which is not a public address and no network of BACKCHANNEL_PRIVATE_NETWORKS names it/,
    );
  });
});
