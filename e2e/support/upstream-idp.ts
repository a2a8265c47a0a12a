import { randomBytes } from 'node:crypto';
import {
  startUpstreamIdp,
  type UpstreamIdp,
  type UpstreamPerson,
} from '../../server/test/support/upstream-idp.ts';
import { strongPassword } from './accounts.ts';
import { runAdmin } from './admin.ts';

/**
 * An organisation's OpenID Connect provider for the federation journeys (DESIGN §1): the same
 * loopback oidc-provider the API tests use, with its own sign-in page, registered with the running
 * service through the admin CLI's idp:add like an operator would.
 */
export interface RegisteredUpstream {
  readonly idp: UpstreamIdp;
  /** The GUID idp:add printed; CheckUsername answers it for the bound domain. */
  readonly providerId: string;
  /** The e-mail domain bound to this provider; unique to the worker, since bindings are global. */
  readonly domain: string;
  /** A person of the organisation whose address the provider has verified. */
  readonly person: UpstreamPerson;
}

/** Where the provider sends the browser back to: PUBLIC_URL/api/ExternalIdentityProviderCallback. */
function callbackOf(baseURL: string): string {
  return new URL('/api/ExternalIdentityProviderCallback', baseURL).href;
}

export async function startRegisteredUpstream(baseURL: string): Promise<RegisteredUpstream> {
  const domain = `org-${randomBytes(4).toString('hex')}.example`;
  const clientId = 'keycard-e2e';
  const clientSecret = randomBytes(24).toString('base64url');
  const person: UpstreamPerson = {
    sub: `person-${randomBytes(4).toString('hex')}`,
    email: `pat@${domain}`,
    emailVerified: true,
    name: 'Pat Upstream',
    password: strongPassword(),
  };
  const idp = await startUpstreamIdp({
    clientId,
    clientSecret,
    redirectUri: callbackOf(baseURL),
    people: [person],
  });
  try {
    const result = await runAdmin(
      [
        'idp:add',
        '--name',
        'Journey organisation',
        '--issuer',
        idp.issuer,
        '--client-id',
        clientId,
        '--client-secret-stdin',
        '--domain',
        domain,
      ],
      clientSecret,
    );
    const providerId = (result as { id?: unknown }).id;
    if (typeof providerId !== 'string') throw new Error('idp:add answered no provider id');
    return { idp, providerId, domain, person };
  } catch (error) {
    await idp.close();
    throw error;
  }
}
