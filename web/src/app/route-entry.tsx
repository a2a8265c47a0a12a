import { type ComponentType, lazy, type ReactElement } from 'react';
import type { PathPattern } from '../routing/path-patterns.ts';
import type { RoutePage } from '../shell/route-page.ts';

/** A screen's component, and how to start loading its code before it first renders. */
export interface ScreenSource<V extends object> {
  readonly Component: ComponentType<V>;
  readonly preload: () => void;
}

/** A screen in the start-up bundle: small, without forms or calls. */
export function eagerScreen<V extends object>(Component: ComponentType<V>): ScreenSource<V> {
  return { Component, preload: () => undefined };
}

/**
 * A screen with forms or calls, split off the start-up bundle (bench/size.ts budget). `preload`
 * starts loading it while the start-up calls run, so nothing waits for it afterwards; load errors
 * surface when the screen renders, not there.
 */
export function lazyScreen<V extends object>(load: () => Promise<ComponentType<V>>): ScreenSource<V> {
  return {
    Component: lazy(async () => ({ default: await load() })),
    preload: () => {
      load().catch(() => undefined);
    },
  };
}

/** One row of the route table. */
export interface RouteDefinition<N extends string, V extends object> extends RoutePage {
  /** The route's name, `route.screen` of a matched location. */
  readonly name: N;
  readonly path: PathPattern<V>;
  /** Takes the values the path pattern reads as its props. */
  readonly screen: ScreenSource<NoInfer<V>>;
}

/** A location matched by a route: its name with its path values, and how to show it. */
export interface MatchedRoute<N extends string, V extends object> {
  readonly route: { readonly screen: N } & Readonly<V>;
  readonly page: RoutePage;
  readonly preload: () => void;
  readonly render: () => ReactElement;
}

export interface RouteEntry<N extends string, V extends object> {
  readonly name: N;
  readonly match: (pathname: string, search: string) => MatchedRoute<N, V> | null;
}

/** A screen with a code restarts when the code changes: a new code is a new visit. */
function keyOf(values: object): string | undefined {
  return 'code' in values && typeof values.code === 'string' ? values.code : undefined;
}

/**
 * Defines a route. The path values and the screen's props are one type, so matching and rendering
 * a row need no case per route.
 */
export function defineRoute<const N extends string, V extends object>(
  definition: RouteDefinition<N, V>,
): RouteEntry<N, V> {
  const { name, path, screen, pageKind, titleKey } = definition;
  const page: RoutePage = { pageKind, titleKey };
  return {
    name,
    match(pathname, search) {
      const values = path.match(pathname, search);
      if (!values) return null;
      return {
        route: { screen: name, ...values },
        page,
        preload: screen.preload,
        render: () => <screen.Component key={keyOf(values)} {...values} />,
      };
    },
  };
}
