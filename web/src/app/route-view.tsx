import { useLocation } from '../routing/navigation.tsx';
import { RoutePageContext } from '../shell/route-page.ts';
import { findRoute } from './match-route.ts';
import { RoutedScreen } from './routed-screen.tsx';

/**
 * Shows the screen of the route table's first match (SPEC §2: case-insensitive prefixes, `/` with the
 * ReturnUrl rule), with the route's page; routing/navigation supplies the location.
 */
export function RouteView() {
  const location = useLocation();
  const matched = findRoute(location.pathname, location.search);
  return (
    <RoutePageContext value={matched.page}>
      <RoutedScreen location={location}>{matched.render()}</RoutedScreen>
    </RoutePageContext>
  );
}
