import { describe, expect, it } from 'vitest';
import { decodeFlow, encodeFlow, UPSTREAM_FLOW_TTL_SECONDS, type UpstreamFlow } from './upstream-flow.ts';

const NOW = new Date('2026-01-01T10:00:00Z');
const flow: UpstreamFlow = {
  providerId: '3f1c2a9e-0000-4000-8000-000000000001',
  state: 'state-value',
  nonce: 'nonce-value',
  codeVerifier: 'v'.repeat(43),
  returnUrl: '/oidc/auth/abc?product=Planner',
  expiresAt: NOW.getTime() + UPSTREAM_FLOW_TTL_SECONDS * 1000,
};

describe('upstream flow cookie value', () => {
  it('round-trips while fresh', () => {
    expect(decodeFlow(encodeFlow(flow), NOW)).toEqual(flow);
  });

  it('is refused once expired, whatever the browser kept', () => {
    expect(decodeFlow(encodeFlow(flow), new Date(flow.expiresAt))).toBeNull();
  });

  it('is refused when it is not a flow', () => {
    expect(decodeFlow('not base64 json', NOW)).toBeNull();
    expect(decodeFlow(Buffer.from('{"state":"x"}').toString('base64url'), NOW)).toBeNull();
  });
});
