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
