import { interactionPolicy, type interactionPolicy as policyTypes } from 'oidc-provider';

/**
 * oidc-provider's interaction policy with one change: `prompt=consent`, which OIDC Core §11 asks of
 * a client that wants offline_access, asks the person nothing. Every client is one of the product's
 * own applications, its grant is made without a consent screen (loadExistingGrant, DESIGN §1), and
 * the client was registered for offline_access or never gets it (provisioning/client-rules.ts).
 */
export function firstPartyPolicy(): policyTypes.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy.get('consent')?.checks.remove('consent_prompt');
  return policy;
}
