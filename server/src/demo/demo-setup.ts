import { randomBytes } from 'node:crypto';
import { findAccountByEmail, insertAccount, storePassword } from '../accounts/account-repository.ts';
import { hashPassword } from '../accounts/password-hash.ts';
import { saveClient } from '../oidc/oidc-repository.ts';
import type { Db } from '../store/database.ts';

export const DEMO_CLIENT_ID = 'keycard-demo';
export const DEMO_PRODUCT_NAME = 'Demo Planner';
export const DEMO_EMAIL = 'demo@keycard.example';

/** Registers (or refreshes) the built-in demo relying party: a public client using PKCE. */
export async function ensureDemoClient(db: Db, publicUrl: string): Promise<void> {
  const row = {
    productName: DEMO_PRODUCT_NAME,
    clientSecret: null,
    redirectUris: [`${publicUrl}/demo/callback`],
    postLogoutRedirectUris: [`${publicUrl}/demo`],
    grantTypes: ['authorization_code'],
    scope: 'openid email profile',
    tokenEndpointAuthMethod: 'none',
    jwks: null,
    jwksUri: null,
    requirePkce: true,
    idTokenSignedResponseAlg: null,
  };
  await saveClient(db, DEMO_CLIENT_ID, row);
}

/** A password that passes the policy: random, with every character class SPEC §5 asks for. */
function demoPassword(): string {
  return `Demo-${randomBytes(12).toString('base64url')}-7a`;
}

/**
 * Creates the demo account at first start. Its password is returned only then, to be printed once;
 * on later starts the account exists and nothing is returned.
 */
export async function ensureDemoAccount(db: Db): Promise<{ email: string; password: string } | null> {
  if (await findAccountByEmail(db, DEMO_EMAIL)) return null;
  const account = await insertAccount(db, { email: DEMO_EMAIL, displayName: 'Dana Demo', locale: null });
  if (!account) return null;
  const password = demoPassword();
  await storePassword(db, account.id, await hashPassword(password), new Date());
  return { email: DEMO_EMAIL, password };
}
