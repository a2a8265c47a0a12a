import type * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { CONTOSO_PROVIDER } from '../../test/support/upstream-provider-record.ts';
import type { UpstreamProviderRecord } from './federation-repository.ts';
import { upstreamConfigurations } from './upstream-client.ts';

const PROVIDER = CONTOSO_PROVIDER;
/** How long a provider's configuration is kept: 5 minutes. */
const KEPT_MS = 5 * 60_000;

/** A discovery that answers only when told: each call's configuration, settled by the test. */
function heldDiscovery() {
  const calls: {
    provider: UpstreamProviderRecord;
    answer(): void;
    fail(): void;
    configuration: oidc.Configuration;
  }[] = [];
  const discover = (provider: UpstreamProviderRecord) =>
    new Promise<oidc.Configuration>((resolve, reject) => {
      // Stands in for a configuration: the tests only tell one from another.
      const configuration = { call: calls.length } as unknown as oidc.Configuration;
      calls.push({
        provider,
        configuration,
        answer: () => resolve(configuration),
        fail: () => reject(new TypeError('fetch failed')),
      });
    });
  return { calls, discover };
}

function call(calls: ReturnType<typeof heldDiscovery>['calls'], index: number) {
  const found = calls[index];
  if (!found) throw new Error(`no discovery ${index + 1}`);
  return found;
}

describe('upstreamConfigurations', () => {
  it('keeps a configuration for 5 minutes from when it was asked for, then discovers again', async () => {
    let now = 1_000_000;
    const { calls, discover } = heldDiscovery();
    const configurations = upstreamConfigurations(() => now, discover);
    const first = configurations(PROVIDER);
    call(calls, 0).answer();
    now += KEPT_MS - 1;
    expect(await configurations(PROVIDER)).toBe(await first);
    expect(calls).toHaveLength(1);
    now += 1;
    const second = configurations(PROVIDER);
    expect(calls).toHaveLength(2);
    call(calls, 1).answer();
    expect(await second).toBe(call(calls, 1).configuration);
  });

  it('shares one discovery among the sign-ins asking while it is under way', async () => {
    const { calls, discover } = heldDiscovery();
    const configurations = upstreamConfigurations(() => 0, discover);
    const asked = [configurations(PROVIDER), configurations(PROVIDER), configurations(PROVIDER)];
    expect(calls).toHaveLength(1);
    call(calls, 0).answer();
    expect(new Set(await Promise.all(asked))).toEqual(new Set([call(calls, 0).configuration]));
  });

  it('discovers again for a changed issuer, client id or secret, and for another provider', () => {
    const { calls, discover } = heldDiscovery();
    const configurations = upstreamConfigurations(() => 0, discover);
    void configurations(PROVIDER);
    void configurations({ ...PROVIDER, clientSecret: 'another' });
    void configurations({ ...PROVIDER, clientId: 'another' });
    void configurations({ ...PROVIDER, issuer: 'https://login.another.example' });
    void configurations({ ...PROVIDER, id: '00000000-0000-4000-8000-000000000002' });
    // What is not sent to the provider changes nothing.
    void configurations({ ...PROVIDER, id: '00000000-0000-4000-8000-000000000002', name: 'Renamed' });
    expect(calls.map((made) => made.provider.clientSecret)).toEqual([
      'secret',
      'another',
      'secret',
      'secret',
      'secret',
    ]);
    expect(calls).toHaveLength(5);
  });

  it('keeps no failed discovery: the next sign-in asks again', async () => {
    const { calls, discover } = heldDiscovery();
    const configurations = upstreamConfigurations(() => 0, discover);
    const failing = configurations(PROVIDER);
    call(calls, 0).fail();
    await expect(failing).rejects.toThrow('fetch failed');
    const next = configurations(PROVIDER);
    expect(calls).toHaveLength(2);
    call(calls, 1).answer();
    expect(await next).toBe(call(calls, 1).configuration);
  });

  it('keeps the newer configuration when an older one it replaced fails afterwards', async () => {
    let now = 0;
    const { calls, discover } = heldDiscovery();
    const configurations = upstreamConfigurations(() => now, discover);
    const older = configurations(PROVIDER);
    now += KEPT_MS;
    const newer = configurations(PROVIDER);
    call(calls, 1).answer();
    call(calls, 0).fail();
    await expect(older).rejects.toThrow('fetch failed');
    expect(await configurations(PROVIDER)).toBe(await newer);
    expect(calls).toHaveLength(2);
  });

  it('discovers again when the clock was set back', () => {
    let now = 10 * KEPT_MS;
    const { calls, discover } = heldDiscovery();
    const configurations = upstreamConfigurations(() => now, discover);
    void configurations(PROVIDER);
    now -= 1;
    void configurations(PROVIDER);
    expect(calls).toHaveLength(2);
  });
});
