import { ADMIN_SCOPE } from '@keycard/contract';
import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * Discovery lists only what a client can register and use (issue: discovery tells the truth). The
 * admin API's scope stays declared to the provider, so the token endpoint refuses it (invalid_scope)
 * to every client registered without it, but no relying party can register it: it is not listed.
 */
export async function hideAdminScope(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.oidc?.route !== 'discovery') return;
  const body = ctx.body as { scopes_supported?: string[] } | undefined;
  if (body?.scopes_supported) {
    body.scopes_supported = body.scopes_supported.filter((scope) => scope !== ADMIN_SCOPE);
  }
}
