import { type RefObject, useLayoutEffect } from 'react';

/**
 * Keeps the tab title equal to the page's heading, followed by the product name: the card's h1 as it
 * reads now, also after a screen changes its heading (a done state, a failed link). Read from the
 * page itself, so every screen gets it without repeating its heading's text.
 */
export function useHeadingTitle(card: RefObject<HTMLElement | null>, product: string): void {
  useLayoutEffect(() => {
    const element = card.current;
    if (!element) return;
    const update = () => {
      const heading = element.querySelector('h1')?.textContent?.trim() ?? '';
      const title = heading && heading !== product ? `${heading} – ${product}` : product;
      if (document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(element, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [card, product]);
}
