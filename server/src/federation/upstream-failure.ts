import * as oidc from 'openid-client';

/** Printable ASCII only, at most 64 characters: it goes into the audit log as it is. */
export function printableWord(text: string): string {
  return text.replace(/[^\x21-\x7e]/g, '').slice(0, 64) || 'unknown';
}

/**
 * Why the provider's answer was refused, in a word an operator can look up: the OAuth error code the
 * provider answered in its body or its challenge (RFC 6749 §5.2: `invalid_client` for a wrong secret,
 * `invalid_grant` …), the code of the check openid-client made (`OAUTH_JWT_CLAIM_COMPARISON_FAILED` …),
 * a system error's code, else the error's name.
 */
function refusalCause(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError) return printableWord(error.error);
  // A 401 with a challenge (RFC 6750 §3, as a wrong client secret is often answered): its error.
  if (error instanceof oidc.WWWAuthenticateChallengeError) {
    const challenged = error.cause.find((challenge) => typeof challenge.parameters.error === 'string');
    if (challenged?.parameters.error) return printableWord(challenged.parameters.error);
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return printableWord(code);
  return printableWord(error instanceof Error ? error.name : '');
}

/**
 * The word for a request to the provider that got no answer, null for an answer it gave, however
 * wrong. fetch's own failure (`fetch failed`) names its cause's code: a refused or dropped connection
 * (ECONNREFUSED, UND_ERR_SOCKET), a name that does not resolve (ENOTFOUND), a certificate that does
 * not verify (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID); openid-client's timeout (30 s) is
 * OAUTH_TIMEOUT.
 */
function unansweredCause(error: unknown): string | null {
  if (error instanceof TypeError && error.message === 'fetch failed') return refusalCause(error.cause);
  if (error instanceof oidc.ClientError && error.code === 'OAUTH_TIMEOUT') return error.code;
  return null;
}

/** A request to the provider that failed: whether it went unanswered, and the operator's word for it. */
export interface UpstreamFailure {
  readonly unanswered: boolean;
  readonly cause: string;
}

export function upstreamFailure(error: unknown): UpstreamFailure {
  const unanswered = unansweredCause(error);
  if (unanswered !== null) return { unanswered: true, cause: unanswered };
  return { unanswered: false, cause: refusalCause(error) };
}
