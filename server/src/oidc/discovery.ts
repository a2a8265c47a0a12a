import { ADMIN_SCOPE } from '@keycard/contract';
import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * Values oidc-provider lists in discovery that no relying party can register or receive here:
 * the admin API's scope stays declared to the provider, so the token endpoint refuses it
 * (invalid_scope) to every client registered without it, but only `client:add --admin` gives it.
 */
const UNOFFERED: Readonly<Record<string, readonly string[]>> = {
  scopes_supported: [ADMIN_SCOPE],
};

/**
 * Discovery lists only what a client can register and use (test/discovery.test.ts exercises every
 * value it lists, and fails on one it cannot).
 */
export async function honestDiscovery(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.oidc?.route !== 'discovery') return;
  const body = ctx.body as Record<string, unknown> | undefined;
  if (!body) return;
  for (const [member, unoffered] of Object.entries(UNOFFERED)) {
    const listed = body[member];
    if (Array.isArray(listed)) body[member] = listed.filter((value) => !unoffered.includes(value));
  }
}
