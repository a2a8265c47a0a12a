import type { UpstreamProviderRecord } from '../../src/federation/federation-repository.ts';

/** A registered upstream provider as its row reads, for unit tests that never reach its issuer. */
export const CONTOSO_PROVIDER: UpstreamProviderRecord = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Contoso',
  issuer: 'https://login.contoso.example',
  clientId: 'keycard',
  clientSecret: 'secret',
  scopes: ['openid', 'email'],
  createdAt: new Date(),
};
