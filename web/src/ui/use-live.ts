import { useCallback, useLayoutEffect, useRef } from 'react';
import { type AppLocation, useBrowserLocation, useLocation } from '../routing/navigation.tsx';

/** Whether the page may still act on an answer; with `startedAt`, also that it is still there. */
export type LiveCheck = (startedAt?: AppLocation) => boolean;

function sameLocation(a: AppLocation, b: AppLocation): boolean {
  return a.pathname === b.pathname && a.search === b.search;
}

/**
 * Whether the person is still on this page, asked when a call answers. The answer can come after they
 * went to another page (a link, Back); what it would have done then (a move inside the SPA, a full
 * page load) must not take them away from where they went.
 *
 * Being mounted is not enough: a move is a transition, so the page left stays mounted and on show
 * until the next screen has rendered (its code may still be loading), while the browser is already at
 * the new location. So the page is live while it is mounted and the browser is at the location it
 * shows, both kept by a layout effect, which runs in the commit itself. A screen also stays mounted
 * when only its query changes (another sign-in's ReturnUrl): a call that must answer only where it
 * started passes the location it started at as `startedAt`.
 *
 * The check is the same function for the page's life, so effects that use it do not run again when
 * the location changes.
 */
export function useLive(): LiveCheck {
  const location = useLocation();
  const browserLocation = useBrowserLocation();
  const shown = useRef<AppLocation | null>(null);
  // Cleared on unmount; set again on every mount (StrictMode mounts a component twice on its first render).
  useLayoutEffect(() => {
    shown.current = location;
    return () => {
      shown.current = null;
    };
  }, [location]);
  return useCallback(
    (startedAt) => {
      const now = browserLocation();
      const at = shown.current;
      return (
        at !== null && sameLocation(now, at) && (startedAt === undefined || sameLocation(now, startedAt))
      );
    },
    [browserLocation],
  );
}
