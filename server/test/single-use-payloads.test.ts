import { describe, expect, it } from 'vitest';
import { databaseAdapter } from '../src/oidc/storage-adapter.ts';
import { manualClock } from '../src/store/clock.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

/**
 * oidc-provider spends a code after checking that it is unspent, so two redemptions at once (on two
 * instances) can both pass the check. The storage adapter lets exactly one of them spend it; the
 * other is answered as a second use is, and takes the grant away like one (RFC 6749 §4.1.2).
 */

const testDb = useTestDatabase();
const MINUTE = 60;

function adapters() {
  const Adapter = databaseAdapter(testDb().db, manualClock(), {
    sessionLifetimes: testConfig().sessionLifetimes,
  });
  return (model: string) => new Adapter(model);
}

describe('single-use payloads of the storage adapter', () => {
  it('spends an authorization code once; the lost race is invalid_grant and revokes the grant', async () => {
    const model = adapters();
    await model('Grant').upsert('grant-race-1', { accountId: 'a1', clientId: 'planner' }, MINUTE);
    await model('AuthorizationCode').upsert('code-race-1', { grantId: 'grant-race-1' }, MINUTE);
    await model('AccessToken').upsert('token-race-1', { grantId: 'grant-race-1' }, MINUTE);

    // Both found it unspent; the first consume wins.
    await model('AuthorizationCode').consume('code-race-1');
    await expect(model('AuthorizationCode').consume('code-race-1')).rejects.toMatchObject({
      error: 'invalid_grant',
      error_description: 'grant request is invalid',
      status: 400,
    });
    expect(await model('AccessToken').find('token-race-1')).toBeUndefined();
    expect(await model('Grant').find('grant-race-1')).toBeUndefined();
  });

  it('refuses the second rotation of one refresh token the same way, and takes the grant away', async () => {
    const model = adapters();
    await model('Grant').upsert('grant-race-2', { accountId: 'a1', clientId: 'planner' }, MINUTE);
    await model('RefreshToken').upsert('refresh-race-1', { grantId: 'grant-race-2' }, MINUTE);
    await model('AccessToken').upsert('token-race-2', { grantId: 'grant-race-2' }, MINUTE);
    await model('RefreshToken').consume('refresh-race-1');
    // The winner's rotation: its new refresh token, of the same grant.
    await model('RefreshToken').upsert('refresh-race-2', { grantId: 'grant-race-2' }, MINUTE);
    await expect(model('RefreshToken').consume('refresh-race-1')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // A replayed refresh token is a stolen one (RFC 9700 §4.14.2): nothing of its grant lives on.
    expect(await model('Grant').find('grant-race-2')).toBeUndefined();
    expect(await model('AccessToken').find('token-race-2')).toBeUndefined();
    expect(await model('RefreshToken').find('refresh-race-2')).toBeUndefined();
  });

  it('answers a pushed request used twice as an invalid request_uri, and lets other models be consumed again', async () => {
    const model = adapters();
    await model('PushedAuthorizationRequest').upsert('par-race-1', {}, MINUTE);
    await model('PushedAuthorizationRequest').consume('par-race-1');
    await expect(model('PushedAuthorizationRequest').consume('par-race-1')).rejects.toMatchObject({
      error: 'invalid_request_uri',
    });
    await model('Interaction').upsert('interaction-1', {}, MINUTE);
    await model('Interaction').consume('interaction-1');
    await expect(model('Interaction').consume('interaction-1')).resolves.toBeUndefined();
  });

  it('answers a code that is gone as a second use, with no grant to revoke', async () => {
    const model = adapters();
    await expect(model('AuthorizationCode').consume('code-never-stored')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('finds a device code by its user code', async () => {
    const model = adapters();
    await model('DeviceCode').upsert('device-1', { userCode: 'WDJB-MJHT', grantId: 'grant-d' }, MINUTE);
    expect(await model('DeviceCode').findByUserCode('WDJB-MJHT')).toMatchObject({ userCode: 'WDJB-MJHT' });
    expect(await model('DeviceCode').findByUserCode('XXXX-XXXX')).toBeUndefined();
  });
});
