const CONTROL = /\p{Cc}/u;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An upstream issuer must be https; plain http is accepted only on a loopback host, where nothing
 * travels over a network (a provider on the same machine in development and tests).
 */
export function isAcceptableIssuer(value: string): boolean {
  if (/[\s#?]/u.test(value) || CONTROL.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/** Whether requests to this issuer go over plain http (loopback only, see isAcceptableIssuer). */
export function isLoopbackHttpIssuer(issuer: string): boolean {
  return URL.canParse(issuer) && new URL(issuer).protocol === 'http:';
}
