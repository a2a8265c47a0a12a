import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';

/** Where the SPA is: the path and query string of the address bar, as the browser encodes them. */
export interface AppLocation {
  readonly pathname: string;
  readonly search: string;
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one (Back skips the page left). */
  readonly replace?: boolean;
}

/** Goes to a local target (`/path?query`) inside the SPA. */
export type Navigate = (to: string, options?: NavigateOptions) => void;

/** The history the SPA moves through: the browser's, or one kept in memory by the unit tests. */
export interface NavigationHistory {
  location(): AppLocation;
  go(to: string, replace: boolean): void;
  /** Calls `onPop` when the user moved through the history (Back, Forward); returns the unsubscribe. */
  listen(onPop: () => void): () => void;
}

interface Navigation {
  readonly location: AppLocation;
  readonly navigate: Navigate;
  readonly browserLocation: () => AppLocation;
}

const NavigationContext = createContext<Navigation | null>(null);

/** The browser's history: targets become same-document entries, Back and Forward arrive as popstate. */
export const browserHistory: NavigationHistory = {
  location: () => ({ pathname: window.location.pathname, search: window.location.search }),
  go(to, replace) {
    if (replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
  },
  listen(onPop) {
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  },
};

interface NavigationProviderProps {
  readonly history: NavigationHistory;
  readonly children: ReactNode;
}

/**
 * Gives the screens the location and `navigate`; which screen a location shows is decided by the
 * route table (app/routes.ts). A move renders as a transition: while the next screen's code loads,
 * the page left stays on show instead of the empty Suspense fallback.
 */
export function NavigationProvider({ history, children }: NavigationProviderProps) {
  const [location, setLocation] = useState(() => history.location());

  // Subscribed as the first screen commits, before the browser handles another event (a quick Back).
  useLayoutEffect(
    () => history.listen(() => startTransition(() => setLocation(history.location()))),
    [history],
  );

  // Stable for the provider's life, so effects that navigate do not restart when the location changes.
  const navigate = useCallback<Navigate>(
    (to, options = {}) => {
      history.go(to, options.replace ?? false);
      startTransition(() => setLocation(history.location()));
    },
    [history],
  );

  const browserLocation = useCallback(() => history.location(), [history]);
  const value = useMemo<Navigation>(
    () => ({ location, navigate, browserLocation }),
    [location, navigate, browserLocation],
  );
  return <NavigationContext value={value}>{children}</NavigationContext>;
}

function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('a screen is rendered outside NavigationProvider');
  return navigation;
}

/** The location the SPA shows. */
export function useLocation(): AppLocation {
  return useNavigation().location;
}

/**
 * Reads where the browser is now. A move (a link, `navigate`, Back) changes that at once, while the
 * location the SPA shows follows only once the next screen has rendered (moves are transitions): in
 * between, the page left is still on show, and still mounted, though the person has gone.
 */
export function useBrowserLocation(): () => AppLocation {
  return useNavigation().browserLocation;
}

/** Moves inside the SPA; full page loads (the identity service, RedirectUrls) use location.assign. */
export function useNavigate(): Navigate {
  return useNavigation().navigate;
}
