import { REDIRECT_DELAY_MS } from '@keycard/contract';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { isHttpUrl } from '../routing/link-targets.ts';
import { useNavigate } from '../routing/navigation.tsx';
import { useLive } from './use-live.ts';

/** Where the browser goes after an action: a full page load, or a route of the SPA. */
export type RedirectTarget =
  | { readonly kind: 'leave'; readonly url: string }
  | { readonly kind: 'route'; readonly to: string };

/** `value` when it is an absolute http or https URL (SPEC §5), else null; never a script URL. */
export function httpUrlOrNull(value: string | null | undefined): string | null {
  return value && isHttpUrl(value) ? value : null;
}

/** A link target (a local path or an http(s) URL, see routing/link-targets) as a redirect. */
export function redirectTo(href: string): RedirectTarget {
  return href.startsWith('/') ? { kind: 'route', to: href } : { kind: 'leave', url: href };
}

/** SPEC §5: the returned URL when it is http(s); otherwise `fallback`. */
export function httpRedirectOr(url: string | null | undefined, fallback: RedirectTarget): RedirectTarget {
  const http = httpUrlOrNull(url);
  return http ? { kind: 'leave', url: http } : fallback;
}

/** SPEC §5/§8: a successful action whose redirect URL is no http(s) URL ends on the error page. */
export const ERROR_PAGE: RedirectTarget = { kind: 'route', to: '/error' };

/** Goes to `target` now: a full page load, or the SPA's route in place of the current entry. */
function useFollow(): (target: RedirectTarget) => void {
  const navigate = useNavigate();
  return useCallback(
    (target: RedirectTarget) => {
      if (target.kind === 'leave') window.location.assign(target.url);
      // Replace: Back must not return to a page whose code is spent.
      else navigate(target.to, { replace: true });
    },
    [navigate],
  );
}

/**
 * Follows `target` `delayMs` after it is set (SPEC §9: REDIRECT_DELAY_MS unless told); nothing while
 * it is null. The timer starts in a layout effect, when the caption that precedes the redirect is
 * committed, not a frame later. Answers the way to go now instead: it stops the timer, so the
 * target is followed once.
 */
export function useDelayedRedirect(
  target: RedirectTarget | null,
  delayMs: number = REDIRECT_DELAY_MS,
): () => void {
  const follow = useFollow();
  const live = useLive();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const followed = useRef(false);
  useLayoutEffect(() => {
    if (!target) return;
    followed.current = false;
    timer.current = setTimeout(() => {
      // The person went elsewhere (a link, Back) while the next page's code loads: they stay there.
      // Should they come back to this page before it is gone, the way on is still theirs to take.
      if (!live()) return;
      followed.current = true;
      follow(target);
    }, delayMs);
    return () => clearTimeout(timer.current);
  }, [target, delayMs, follow, live]);
  return useCallback(() => {
    if (!target || followed.current) return;
    followed.current = true;
    clearTimeout(timer.current);
    follow(target);
  }, [target, follow]);
}
