import {
  type BackgroundName,
  backgroundPath,
  type PageKind,
  SIGN_IN_ROTATION,
  type Theme,
} from '@keycard/contract';
import { useEffect, useState } from 'react';

/** How long each sign-in image shows before the next one fades in (its zoom runs this long). */
export const ROTATION_INTERVAL_MS = 8_000;

/** SPEC §7/§9: the sign-in start page rotates three images; every other page kind has its own. */
export function backgroundNames(pageKind: PageKind): readonly BackgroundName[] {
  return pageKind === 'unknownUser' ? SIGN_IN_ROTATION : [pageKind];
}

function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

export interface BackgroundState {
  /** Image paths of the page kind, in rotation order (one for most page kinds). */
  readonly layers: readonly string[];
  /** Index of the image showing now. */
  readonly active: number;
}

/**
 * The background images of a page kind and which one shows. Rotation stops under
 * prefers-reduced-motion: the first image stays, still.
 */
export function useBackground(theme: Theme, pageKind: PageKind): BackgroundState {
  const names = backgroundNames(pageKind);
  const [active, setActive] = useState(0);
  const rotating = names.length > 1;

  useEffect(() => {
    setActive(0);
    if (!rotating || prefersReducedMotion()) return;
    const timer = setInterval(() => setActive((index) => (index + 1) % names.length), ROTATION_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [rotating, names.length]);

  const layers = names.map((name) => backgroundPath(theme, name));
  return { layers, active: Math.min(active, layers.length - 1) };
}
