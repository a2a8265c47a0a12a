import { useCallback, useLayoutEffect, useRef } from 'react';
import { useBrowserLocation, useLocation } from '../routing/navigation.tsx';

/**
 * Whether the person is still on this page, asked when a call answers. The answer can come after they
 * went to another page (a link, Back); what it would have done then (a move inside the SPA, a full
 * page load) must not take them away from where they went.
 *
 * Being mounted is not enough: a move is a transition, so the page left stays mounted and on show
 * until the next screen has rendered (its code may still be loading), while the browser is already at
 * the new location. So the page is live while it is mounted and the browser is at the location it
 * shows. Both are kept by layout effects, which run in the commit itself, not some time after it.
 */
export function useLive(): () => boolean {
  const location = useLocation();
  const browserLocation = useBrowserLocation();
  const shown = useRef(location);
  const mounted = useRef(false);
  useLayoutEffect(() => {
    shown.current = location;
  }, [location]);
  // Set again on every mount: StrictMode unmounts and mounts a component once more on its first render.
  useLayoutEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return useCallback(() => {
    const now = browserLocation();
    return mounted.current && now.pathname === shown.current.pathname && now.search === shown.current.search;
  }, [browserLocation]);
}
