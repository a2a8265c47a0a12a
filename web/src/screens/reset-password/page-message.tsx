import type { TextKey } from '@keycard/contract';
import { ApiError, rateLimitWait } from '../../api/api-error.ts';
import { useText } from '../../text/use-text.ts';
import { waitDuration } from '../../text/wait-duration.ts';

/** A message of the reset page: a text key, and for `tooManyRequests` the wait it fills in. */
export interface PageMessage {
  readonly text: TextKey;
  /** Seconds to wait, filled in as {wait}; null for a text without one. */
  readonly waitSeconds: number | null;
}

/**
 * What to say about a call that got no answer (a network failure, or a refusal): how long to wait
 * when refused for too many requests (its Retry-After, or the one-minute window of the service's
 * request limit), that the service is temporarily unavailable when it answered so (a 503; a network
 * failure, status 0, may as well be the person's own connection), and otherwise the generic
 * something-went-wrong (no network, a CSRF refusal, a failure on the service's side).
 */
export function failureMessage(refusal: unknown): PageMessage {
  const wait = rateLimitWait(refusal);
  if (wait !== null) return { text: 'tooManyRequests', waitSeconds: wait };
  if (refusal instanceof ApiError && refusal.code === 'service_unavailable' && refusal.status !== 0) {
    return { text: 'temporarilyUnavailable', waitSeconds: null };
  }
  return { text: 'somethingWentWrong', waitSeconds: null };
}

/** A message's text in the page's language, its wait filled in. */
export function MessageText({ message }: { readonly message: PageMessage }) {
  const { t, language } = useText();
  return message.waitSeconds === null
    ? t(message.text)
    : t(message.text, { wait: waitDuration(message.waitSeconds, language) });
}
