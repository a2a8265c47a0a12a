import { ROUTES } from './routes.ts';

/** A location matched by the route table: its route, its page and how to show its screen. */
export type MatchedRoute = NonNullable<ReturnType<(typeof ROUTES)[number]['match']>>;

/** The screen a location shows (SPEC §2), with the values its path carries; derived from the table. */
export type Route = MatchedRoute['route'];

/** The first route of the table whose path pattern matches the location (SPEC §2). */
export function findRoute(pathname: string, search: string): MatchedRoute {
  for (const entry of ROUTES) {
    const matched = entry.match(pathname, search);
    if (matched) return matched;
  }
  throw new Error('the route table must end with a route for any path');
}

/**
 * Chooses the screen for a location (SPEC §2). Paths match case-insensitively by prefix; `/` matches
 * exactly. Values taken from the path keep their case (codes are case-sensitive). Routes with a
 * `{code}` need at least one segment after their prefix, else the fallback landing page shows.
 */
export function matchRoute(pathname: string, search: string): Route {
  return findRoute(pathname, search).route;
}
