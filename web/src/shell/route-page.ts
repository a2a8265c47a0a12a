import type { PageKind, TextKey } from '@keycard/contract';
import { createContext } from 'react';

/** What the route table says of the page a route shows (app/routes.ts). */
export interface RoutePage {
  /** SPEC §3 page kind the screen opens with; it chooses the background. */
  readonly pageKind: PageKind;
  /** Text key naming the screen: its heading as it opens. */
  readonly titleKey: TextKey;
}

/** Given by the route view to the screen it shows; the page frame reads the page kind from it. */
export const RoutePageContext = createContext<RoutePage | null>(null);
