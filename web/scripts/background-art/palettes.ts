import type { BackgroundName, Theme } from '@keycard/contract';

/**
 * A palette is three hues; each theme derives its colours from them with fixed lightness and
 * saturation recipes, so a page kind keeps its character at noon and in the evening alike.
 */
interface Palette {
  /** Table, horizon and sky: the colour the picture is mostly made of. */
  readonly ground: number;
  /** Warm light: sun, candles, glasses catching it. */
  readonly glow: number;
  /** A second tint in the sky, so gradients do not read as flat. */
  readonly accent: number;
}

/** Chosen per name, not hashed, so no two page kinds end up in clashing or identical hues. */
const PALETTES: Record<BackgroundName, Palette> = {
  unknownUser: { ground: 36, glow: 42, accent: 18 },
  unknownUser1: { ground: 18, glow: 34, accent: 345 },
  unknownUser2: { ground: 135, glow: 44, accent: 28 },
  unknownUser3: { ground: 205, glow: 30, accent: 185 },
  wrongPasswordUnknownUser: { ground: 330, glow: 26, accent: 285 },
  userLockedAfterTooManyFailedAttempts: { ground: 222, glow: 38, accent: 250 },
  unlock: { ground: 262, glow: 36, accent: 12 },
  emailVerification: { ground: 178, glow: 44, accent: 205 },
  userLogoff: { ground: 12, glow: 30, accent: 350 },
  forgotPassword: { ground: 72, glow: 40, accent: 32 },
  expiredLink: { ground: 32, glow: 20, accent: 5 },
  resetPassword: { ground: 158, glow: 40, accent: 198 },
  fallbackLandingPage: { ground: 28, glow: 40, accent: 205 },
};

export interface ThemeColors {
  readonly skyTop: string;
  readonly skyHorizon: string;
  readonly glow: string;
  readonly far: string;
  readonly water: string;
  readonly tableBack: string;
  readonly tableFront: string;
  readonly plate: string;
  readonly light: string;
  readonly vignette: string;
}

function hsl(hue: number, saturation: number, lightness: number): string {
  const s = saturation / 100;
  const l = lightness / 100;
  const chroma = s * Math.min(l, 1 - l);
  const channel = (offset: number): string => {
    const k = (offset + hue / 30) % 12;
    const value = l - chroma * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** Dark: deep evening tones lit by warm light; light: bright, warm daylight (SPEC §9 themes). */
export function themeColors(name: BackgroundName, theme: Theme): ThemeColors {
  const { ground, glow, accent } = PALETTES[name];
  if (theme === 'dark') {
    return {
      skyTop: hsl(ground, 38, 7),
      skyHorizon: hsl(accent, 32, 19),
      glow: hsl(glow, 80, 56),
      far: hsl(ground, 26, 12),
      water: hsl(ground, 34, 10),
      tableBack: hsl(ground, 22, 15),
      tableFront: hsl(ground, 30, 6),
      plate: hsl(glow, 30, 62),
      light: hsl(glow, 90, 72),
      vignette: hsl(ground, 40, 3),
    };
  }
  return {
    skyTop: hsl(accent, 42, 93),
    skyHorizon: hsl(glow, 75, 86),
    glow: hsl(glow, 95, 82),
    far: hsl(ground, 28, 80),
    water: hsl(ground, 40, 85),
    tableBack: hsl(ground, 30, 91),
    tableFront: hsl(ground, 22, 83),
    plate: hsl(ground, 40, 98),
    light: hsl(glow, 100, 97),
    vignette: hsl(ground, 25, 72),
  };
}
