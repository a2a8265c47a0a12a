import { type CallResponse, type PostCallName, postCalls } from '@keycard/contract';
import { expect, type Page, type Response } from '@playwright/test';

/**
 * Resolves with the next response of the SPA's POST call `name` (SPEC §7). Start waiting before the
 * action that makes the call.
 */
export function nextCall(page: Page, name: PostCallName): Promise<Response> {
  const callPath = postCalls[name].path.toLowerCase();
  return page.waitForResponse((response) => new URL(response.url()).pathname.toLowerCase() === callPath);
}

/**
 * The body of a call's response, checked against the contract. Read it only when the page did not
 * leave in between: a full page load discards the response body.
 */
export async function callAnswer<N extends PostCallName>(
  name: N,
  response: Response,
): Promise<CallResponse<N>> {
  expect(response.status(), `status of ${postCalls[name].path}`).toBe(200);
  return postCalls[name].response.parse(await response.json()) as CallResponse<N>;
}

/** Requests held at the browser by `holdRequests`. */
export interface HeldRequests {
  /** How many of them got there so far. */
  arrivals(): number;
  /** Lets them, and any held later, go on to the service. */
  release(): void;
}

/** Holds the page's requests that `matches` picks until `release`, as a slow network would. */
export async function holdRequests(page: Page, matches: (url: URL) => boolean): Promise<HeldRequests> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrivals = 0;
  await page.route(matches, async (route) => {
    arrivals += 1;
    await held;
    await route.continue();
  });
  return { arrivals: () => arrivals, release: () => release() };
}

/** Holds the SPA's POST call `name` (SPEC §7) until `release`. */
export function holdCalls(page: Page, name: PostCallName): Promise<HeldRequests> {
  const callPath = postCalls[name].path.toLowerCase();
  return holdRequests(page, (url) => url.pathname.toLowerCase() === callPath);
}
