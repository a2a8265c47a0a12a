import {
  createContext,
  type ReactNode,
  type RefObject,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
} from 'react';
import type { AppLocation } from '../routing/navigation.tsx';

/** The card of the page on show, registered by its PageFrame, read when a move arrives. */
const PageCardContext = createContext<RefObject<HTMLElement | null> | null>(null);

/** Nothing holds focus: what had it was part of the page left, and the new page placed none. */
function nothingFocused(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/**
 * Gives the page's heading focus: not in the tab order (-1, a heading is no control, and a positive
 * index would reorder the page), and without the browser's scroll into view, since the page is
 * shown from its top.
 */
function focusHeading(card: HTMLElement | null): void {
  const heading = card?.querySelector('h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

interface PageArrivalProps {
  /** The location on show; a new one (a move, Back or Forward) is an arrival. */
  readonly location: AppLocation;
  readonly children: ReactNode;
}

/**
 * After a move inside the SPA, the page left unmounts with what had focus, which then falls to
 * <body>: nothing is read out, the keyboard starts over at the top of the document and the scroll
 * position is the old page's. So on arrival the new page's heading (its card's h1) takes focus and
 * the page shows from its top, as after a page load; a screen that placed focus itself (a field, a
 * done state) keeps it. The first location is the page load's: the screen decides alone there (the
 * sign-in page focuses its e-mail field).
 *
 * A passive effect of an ancestor of the screen: it runs after every effect of the screen's commit,
 * layout and passive, so whatever focus the screen placed on mount is in place by then.
 */
export function PageArrival({ location, children }: PageArrivalProps) {
  const card = useRef<HTMLElement | null>(null);
  const loaded = useRef(location);

  useEffect(() => {
    if (location === loaded.current || !nothingFocused()) return;
    focusHeading(card.current);
    window.scrollTo(0, 0);
  }, [location]);

  return <PageCardContext value={card}>{children}</PageCardContext>;
}

/** Registers the page's card (PageFrame) with the PageArrival above it, if there is one. */
export function useArrivalCard(card: RefObject<HTMLElement | null>): void {
  const registry = useContext(PageCardContext);
  useLayoutEffect(() => {
    const element = card.current;
    if (!registry || !element) return;
    registry.current = element;
    return () => {
      if (registry.current === element) registry.current = null;
    };
  }, [registry, card]);
}
