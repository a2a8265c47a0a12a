import type { AppLocation, NavigationHistory } from '../routing/navigation.tsx';

/** A local target split into path and query, as the address bar shows them (any fragment dropped). */
function locationOf(to: string): AppLocation {
  const [path = ''] = to.split('#');
  const queryStart = path.indexOf('?');
  if (queryStart < 0) return { pathname: path, search: '' };
  return { pathname: path.slice(0, queryStart), search: path.slice(queryStart) };
}

/**
 * The history of a unit test, starting at `url`: it follows `navigate` and nothing else. Tests have
 * no Back or Forward button, so it never reports a move of its own.
 */
export function memoryHistory(url: string): NavigationHistory {
  let current = locationOf(url);
  return {
    location: () => current,
    go(to) {
      current = locationOf(to);
    },
    listen: () => () => undefined,
  };
}

/** A memory history at `url` that also lists each entry it was given: `push <to>` or `replace <to>`. */
export function recordedHistory(url: string): {
  readonly history: NavigationHistory;
  readonly moves: string[];
} {
  const memory = memoryHistory(url);
  const moves: string[] = [];
  const history: NavigationHistory = {
    ...memory,
    go(to, replace) {
      moves.push(`${replace ? 'replace' : 'push'} ${to}`);
      memory.go(to, replace);
    },
  };
  return { history, moves };
}
