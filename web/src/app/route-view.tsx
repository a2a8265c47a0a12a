import { Suspense } from 'react';
import { useLocation } from '../routing/navigation.tsx';
import { RoutePageContext } from '../shell/route-page.ts';
import { findRoute } from './match-route.ts';

/**
 * Shows the screen of the route table's first match (SPEC §2: case-insensitive prefixes, `/` with the
 * ReturnUrl rule), with the route's page; routing/navigation supplies the location.
 */
export function RouteView() {
  const { pathname, search } = useLocation();
  const matched = findRoute(pathname, search);
  return (
    <RoutePageContext value={matched.page}>
      <Suspense fallback={null}>{matched.render()}</Suspense>
    </RoutePageContext>
  );
}
