import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * An origin a CSP source expression can name as it is: http(s), a host of letters, digits, dots and
 * hyphens (IDNs arrive in punycode), a port. The URL parser lets `;`, `,` and quotes into a host,
 * which would end the directive and start another.
 */
const NAMEABLE_ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d+)?$/i;

/** The origin of `uri` as a CSP source expression, or undefined where CSP cannot name it safely. */
export function originSourceOf(uri: unknown): string | undefined {
  // Stryker disable next-line ConditionalExpression: every caller passes a string the provider validated or nothing
  if (typeof uri !== 'string' || !URL.canParse(uri)) return undefined;
  const { origin } = new URL(uri);
  return NAMEABLE_ORIGIN.test(origin) ? origin : undefined;
}

/** `policy` with `source` added to its form-action directive; every other directive unchanged. */
export function withFormActionSource(policy: string, source: string): string {
  return policy
    .split(';')
    .map((directive) => {
      // Stryker disable next-line MethodExpression,Regex: helmet writes the policy with ';' and single spaces; a space more would still parse
      const [name, ...values] = directive.trim().split(/\s+/);
      if (name !== 'form-action' || values.includes(source)) return directive;
      return [name, ...values, source].join(' ');
    })
    .join(';');
}

/**
 * The redirect_uri an HTML answer of the authorization endpoint sends the browser to, as the provider
 * validated it. Such an answer is the form_post page, or, when the person signed in as another account
 * than the session's, the form that ends the session first and redirects on to resume and the client.
 * That second form is answered before the stored request is read again: its redirect_uri is the one
 * checked when the request was made and stored with the interaction.
 */
function redirectUriOf({ oidc }: KoaContextWithOIDC): unknown {
  // Stryker disable next-line OptionalChaining: the account switch, the one page without params, answers from an interaction
  if (!oidc.params) return oidc.entities.Interaction?.params.redirect_uri;
  const uri = oidc.params.redirect_uri;
  // Checked by the request's own steps, or, for an error they did not reach, by the provider's error
  // handler with this same call before it answers with the response mode.
  // Stryker disable next-line ConditionalExpression: a URI checked already passes the same check again
  if (oidc.redirectUriCheckPerformed) return uri;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,OptionalChaining: the handler posts only a string redirect_uri of the request's client
  return typeof uri === 'string' && oidc.client?.redirectUriAllowed(uri) ? uri : undefined;
}

/**
 * A post_logout_redirect_uri registered for the request's client: where the confirm step of a browser
 * without a session redirects after the provider's page posted to it.
 */
function postLogoutRedirectUriOf({ oidc }: KoaContextWithOIDC): unknown {
  // Stryker disable next-line all: the provider refuses an unregistered one (and screenEndSessionRequest drops it) before this runs; checked again so that no change there can widen the policy
  const uri = oidc.params?.post_logout_redirect_uri;
  // Stryker disable next-line all: as above
  return typeof uri === 'string' && oidc.client?.postLogoutRedirectUriAllowed(uri) ? uri : undefined;
}

function formTargetOf(ctx: KoaContextWithOIDC): string | undefined {
  // Stryker disable next-line OptionalChaining: an HTML answer of the provider always has its context
  switch (ctx.oidc?.route) {
    case 'authorization':
    case 'resume':
      return originSourceOf(redirectUriOf(ctx));
    case 'end_session':
      return originSourceOf(postLogoutRedirectUriOf(ctx));
    default:
      return undefined;
  }
}

/**
 * DESIGN §2 Headers: every answer's CSP says form-action 'self' (http/security-headers.ts). The
 * provider's self-submitting pages post to a client (form_post) or to the provider's own step that
 * redirects to one, and browsers apply form-action to the redirects after a submission too (CSP Level
 * 3; Chromium does): such a page would leave the person stuck on it. So each of these HTML answers
 * also allows the one client origin the provider validated for it, and nothing that the request alone
 * names; every other answer keeps 'self' only.
 */
export async function allowFormActionToClient(
  ctx: KoaContextWithOIDC,
  next: () => Promise<void>,
): Promise<void> {
  await next();
  // Stryker disable next-line ConditionalExpression,StringLiteral: a policy on an answer that is no page governs no form; the check keeps the rewrite off the provider's redirects
  if (!ctx.response.is('html')) return;
  const origin = formTargetOf(ctx);
  const policy = ctx.response.get('content-security-policy');
  if (origin === undefined || !policy) return;
  ctx.set('content-security-policy', withFormActionSource(policy, origin));
}
