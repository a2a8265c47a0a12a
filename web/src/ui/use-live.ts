import { useCallback, useLayoutEffect, useRef } from 'react';
import { useBrowserLocation, useLocation } from '../routing/navigation.tsx';

/**
 * Whether the person is still where a call started, asked when it answers. The answer can come after
 * they went to another page (a link, Back); what it would have done then (a move inside the SPA, a full
 * page load) must not take them away from where they went.
 *
 * Being mounted is not enough: a move is a transition, so the page left stays mounted and on show
 * until the next screen has rendered (its code may still be loading), while the browser is already at
 * the new location; and a screen stays mounted when only its query changes (another sign-in's
 * ReturnUrl, another logoutId). So the check is made for each arrival at a location, and says whether
 * the page is mounted (kept by a layout effect, which runs in the commit itself) and the browser is
 * still at that location. A call keeps the check of the render it started in; an effect that depends
 * on the check runs again when the person arrives anew.
 */
export function useLive(): () => boolean {
  const location = useLocation();
  const browserLocation = useBrowserLocation();
  const mounted = useRef(false);
  // Set again on every mount: StrictMode unmounts and mounts a component once more on its first render.
  useLayoutEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return useCallback(() => {
    const now = browserLocation();
    return mounted.current && now.pathname === location.pathname && now.search === location.search;
  }, [browserLocation, location]);
}
