import { type RefObject, useEffect, useRef } from 'react';

/**
 * True while the component is on the page. A call's answer can come after the person went to another
 * page (a link, Back); what the answer would have done then (a move inside the SPA, a full page load)
 * must not take them away from where they went.
 */
export function useLive(): RefObject<boolean> {
  const live = useRef(true);
  // Set again on every mount: StrictMode unmounts and mounts a component once more on its first render.
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  return live;
}
