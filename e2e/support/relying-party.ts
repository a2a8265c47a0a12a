import type { Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { DEMO_CLIENT_ID } from '../pages/demo-page.ts';

const CALLBACK_PATH = '/demo/callback';

/**
 * A relying party of the journeys' own, as an integrating developer writes one: openid-client v6,
 * configured from the service's discovery document, using the demo client's registration. It builds
 * its own authorization requests (login_hint, ui_locales …) and redeems the code itself.
 */
export interface RelyingParty {
  /** Sends the page to the provider with `extra` parameters; resolves once the page has loaded. */
  authorize(page: Page, extra?: Record<string, string>): Promise<void>;
  /**
   * Waits for the browser to be sent to the callback (where the demo page, whose own sign-in this is
   * not, turns it away unused) and redeems the code there: the ID token's claims.
   */
  redeemAtCallback(page: Page): Promise<oidc.IDToken | undefined>;
}

export async function relyingParty(origin: string): Promise<RelyingParty> {
  const configuration = await oidc.discovery(
    new URL('/oidc', origin),
    DEMO_CLIENT_ID,
    undefined,
    oidc.None(),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  const redirectUri = new URL(CALLBACK_PATH, origin).href;
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  return {
    async authorize(page, extra = {}) {
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        ...extra,
      });
      await page.goto(url.href);
    },
    async redeemAtCallback(page) {
      const arrival = await page.waitForRequest(
        (request) => new URL(request.url()).pathname === CALLBACK_PATH,
      );
      const tokens = await oidc.authorizationCodeGrant(configuration, new URL(arrival.url()), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      return tokens.claims();
    },
  };
}
