import { browserHistory, NavigationProvider } from '../routing/navigation.tsx';
import { pageLanguage } from '../routing/query.ts';
import { TextProvider } from '../text/text-provider.tsx';
import { RouteView } from './route-view.tsx';

/**
 * The SPA: nothing shows before the start-up calls answered (SPEC §1), then the route's screen. The
 * texts are in the language a relying party asked for (`ui_locales` in the ReturnUrl), else in the
 * browser's.
 */
export function App() {
  return (
    <TextProvider browserLanguage={pageLanguage(window.location.search, navigator.language)}>
      <NavigationProvider history={browserHistory}>
        <RouteView />
      </NavigationProvider>
    </TextProvider>
  );
}
