import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  registerConfidentialClient,
  relyingParty,
  signInThrough,
} from './support/confidential-relying-party.ts';
import { useTestService } from './support/test-service.ts';

const service = useTestService({
  setUp: async ({ db }) => registerConfidentialClient(db, 'planner'),
});

/** OpenID Connect Core §3.1.3.6: the left half of the SHA-256 of the access token, base64url. */
function atHashOf(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
}

describe('ID tokens a relying party receives (openid-client)', () => {
  it('carry sid, the session id the logout token will name, and at_hash of the access token', async () => {
    const rp = await relyingParty(service().app, 'planner');
    const { tokens } = await signInThrough(service(), rp);
    const claims = tokens.claims();
    expect(claims?.sid).toMatch(/^[\w-]{10,}$/);
    expect(claims?.at_hash).toBe(atHashOf(tokens.access_token));
  });

  it('are the only front-channel product: discovery offers the code flow alone, so no ID token needs c_hash', async () => {
    const rp = await relyingParty(service().app, 'planner');
    expect(rp.serverMetadata().response_types_supported).toEqual(['code']);
    expect(rp.serverMetadata().claims_supported).toEqual(expect.arrayContaining(['sid']));
  });
});
