import { browserHistory, NavigationProvider } from '../routing/navigation.tsx';
import { TextProvider } from '../text/text-provider.tsx';
import { RouteView } from './route-view.tsx';

/** The SPA: nothing shows before the start-up calls answered (SPEC §1), then the route's screen. */
export function App() {
  return (
    <TextProvider>
      <NavigationProvider history={browserHistory}>
        <RouteView />
      </NavigationProvider>
    </TextProvider>
  );
}
