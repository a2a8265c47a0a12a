import { Suspense } from 'react';
import { useLocation } from '../routing/navigation.tsx';
import { findRoute } from './match-route.ts';

/**
 * Shows the screen of the route table's first match (SPEC §2: case-insensitive prefixes, `/` with the
 * ReturnUrl rule); routing/navigation supplies the location.
 */
export function RouteView() {
  const { pathname, search } = useLocation();
  return <Suspense fallback={null}>{findRoute(pathname, search).render()}</Suspense>;
}
