/**
 * DESIGN §2 Cookies: every cookie the service sets, in one place. Each is HttpOnly, SameSite=Lax,
 * signed, and Secure under https, where a prefix also pins it to this origin: `__Host-` for a cookie
 * of path `/`, `__Secure-` for the provider's resume cookie, whose path is the authorize request's own
 * (which `__Host-` forbids).
 */
export interface CookieAttributes {
  readonly httpOnly: true;
  readonly sameSite: 'lax';
  readonly secure: boolean;
  readonly signed: true;
}

/** A cookie of path `/`: its name and what it is set (and cleared) with. */
export interface SiteCookie {
  readonly name: string;
  readonly options: CookieAttributes & { readonly path: '/' };
}

export interface CookiePolicy {
  /** The anti-forgery secret (http/csrf.ts). */
  readonly csrf: SiteCookie;
  /** The upstream sign-in flow, from the redirect to the provider until its callback. */
  readonly federation: SiteCookie;
  /** The OpenID provider's cookies: the session (long) and the interaction and resume (short). */
  readonly provider: {
    readonly names: { readonly session: string; readonly interaction: string; readonly resume: string };
    readonly long: CookieAttributes;
    readonly short: CookieAttributes;
  };
}

/** The cookies of a service reached at `publicUrl`. */
export function cookiePolicy(publicUrl: string): CookiePolicy {
  const secure = new URL(publicUrl).protocol === 'https:';
  const attributes: CookieAttributes = { httpOnly: true, sameSite: 'lax', secure, signed: true };
  const atRoot = { path: '/', ...attributes } as const;
  return {
    csrf: { name: secure ? '__Host-csrf' : 'csrf', options: atRoot },
    federation: { name: secure ? '__Host-federation' : 'federation', options: atRoot },
    provider: {
      names: secure
        ? {
            session: '__Host-session',
            interaction: '__Host-interaction',
            resume: '__Secure-interaction_resume',
          }
        : { session: '_session', interaction: '_interaction', resume: '_interaction_resume' },
      long: attributes,
      short: attributes,
    },
  };
}
