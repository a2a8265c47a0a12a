import type { TextResource } from '@keycard/contract';
import type { ApiClient } from '../api/api-client.ts';

export type StartUpClient = Pick<ApiClient, 'getTextResource' | 'fetchCsrfToken'>;

const pending = new WeakMap<StartUpClient, Promise<TextResource>>();

/**
 * SPEC §1/§7: the text resource and the anti-forgery token, requested in parallel; resolves when
 * both arrived. One start-up per client is in flight at a time, so a re-run effect cannot fetch a
 * second token whose cookie would race the first.
 */
export function startUp(client: StartUpClient, browserLanguage: string): Promise<TextResource> {
  const inFlight = pending.get(client);
  if (inFlight) return inFlight;
  const both = Promise.all([client.getTextResource(browserLanguage), client.fetchCsrfToken()]).then(
    ([texts]) => texts,
  );
  pending.set(client, both);
  const forget = () => pending.delete(client);
  both.then(forget, forget);
  return both;
}

/** Back-off before start-up attempt `attempt + 1`: 1 s, 2 s, 4 s … at most 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}
