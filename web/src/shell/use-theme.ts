import type { Theme } from '@keycard/contract';
import { useEffect, useLayoutEffect, useState } from 'react';
import { themeAt } from './theme.ts';

/** How often an open page checks whether the theme changed (it does at 18:00 and midnight). */
const THEME_CHECK_MS = 60_000;

/**
 * The theme for the local time, kept current and applied as `<html data-theme>` and as the
 * `theme-color` of index.html.
 */
export function useTheme(): Theme {
  const [theme, setTheme] = useState(() => themeAt(new Date()));

  useEffect(() => {
    const timer = setInterval(() => setTheme(themeAt(new Date())), THEME_CHECK_MS);
    return () => clearInterval(timer);
  }, []);

  useLayoutEffect(() => {
    document.documentElement.dataset.theme = theme;
    // The browser's own bars take the theme's bar colour, whatever scheme the system prefers.
    const bar = getComputedStyle(document.documentElement).getPropertyValue('--color-bar').trim();
    if (!bar) return;
    for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
      meta.content = bar;
    }
  }, [theme]);

  return theme;
}
