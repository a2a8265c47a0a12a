import type { BackgroundName } from '@keycard/contract';
import {
  candle,
  fixed,
  glass,
  hillsPath,
  placeSetting,
  strayLights,
  stringLights,
  sunReflection,
  VIEW_HEIGHT,
  VIEW_WIDTH,
} from './scene-parts.ts';
import { hashName, type SeededRandom, seededRandom } from './seeded-random.ts';

/**
 * Where things sit in the picture, as SVG fragments per depth. Seeded from the name only, so the
 * dark and the light variant of a page kind share one scene and the theme switch at 18:00 feels
 * like the light changing rather than the place.
 */
export interface Scene {
  readonly horizon: number;
  readonly tableEdge: number;
  readonly sunX: number;
  /** Horizontal radius of the sun's glow. */
  readonly sunSize: number;
  /** Hills or shoreline, blurred most. */
  readonly far: string;
  /** Water between horizon and table, if any, with the sun's reflection. */
  readonly water: string;
  /** Lights in the air, drawn as soft discs. */
  readonly lights: string;
  /** What stands along the back of the table, a little out of focus. */
  readonly row: string;
  /** One thing right in front of the viewer, far out of focus. */
  readonly near: string;
}

/** A terrace at dusk: string lights over a long table laid for several guests. */
function terrace(random: SeededRandom): Scene {
  const horizon = random.between(0.5, 0.58) * VIEW_HEIGHT;
  const tableEdge = horizon + random.between(40, 90);
  const count = random.integer(3, 5);
  const spacing = VIEW_WIDTH / count;
  const row: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const x = spacing * (index + 0.5 + random.between(-0.18, 0.18));
    row.push(placeSetting(random, x, tableEdge + random.between(70, 130), random.between(0.55, 0.75), 0.55));
  }
  return {
    horizon,
    tableEdge,
    sunX: random.between(0.2, 0.8) * VIEW_WIDTH,
    sunSize: 1100,
    far: hillsPath(random, horizon, 46),
    water: '',
    lights:
      stringLights(random, random.integer(9, 15), random.between(80, 280)) +
      strayLights(random, random.integer(5, 9), 40, horizon - 60),
    row: row.join(''),
    near: placeSetting(
      random,
      random.between(0.15, 0.85) * VIEW_WIDTH,
      VIEW_HEIGHT - random.between(30, 90),
      random.between(1.5, 1.9),
      0.5,
    ),
  };
}

/** A table for two by candlelight, seen close up, with the room's lights far behind. */
function candlelit(random: SeededRandom): Scene {
  const horizon = random.between(0.42, 0.5) * VIEW_HEIGHT;
  const tableEdge = horizon + random.between(30, 60);
  const first = random.between(0.22, 0.34) * VIEW_WIDTH;
  const second = random.between(0.66, 0.78) * VIEW_WIDTH;
  const settingsY = tableEdge + random.between(150, 210);
  const centre = (first + second) / 2 + random.between(-60, 60);
  const row =
    placeSetting(random, first, settingsY, random.between(0.85, 1), 0) +
    placeSetting(random, second, settingsY, random.between(0.85, 1), 0) +
    candle(centre - 70, tableEdge + 40, 0.8) +
    candle(centre + 40, tableEdge + 20, 0.95);
  return {
    horizon,
    tableEdge,
    sunX: centre,
    sunSize: 800,
    far: hillsPath(random, horizon, 24),
    water: '',
    lights: strayLights(random, random.integer(11, 17), 30, horizon + 20),
    row,
    near: glass(random.between(0.08, 0.92) * VIEW_WIDTH, VIEW_HEIGHT + 60, random.between(2.2, 2.6)),
  };
}

/** A table by the sea as the sun sets: the horizon, its reflection, a few glasses on the edge. */
function seaside(random: SeededRandom): Scene {
  const horizon = random.between(0.48, 0.56) * VIEW_HEIGHT;
  const tableEdge = random.between(0.8, 0.86) * VIEW_HEIGHT;
  const sunX = random.between(0.3, 0.7) * VIEW_WIDTH;
  const row: string[] = [];
  for (let x = random.between(0.05, 0.15) * VIEW_WIDTH; x < VIEW_WIDTH; x += random.between(300, 520)) {
    row.push(
      random.next() < 0.5
        ? glass(x, tableEdge + random.between(50, 90), random.between(0.7, 0.9))
        : candle(x, tableEdge + random.between(-20, 20), random.between(0.6, 0.8)),
    );
  }
  return {
    horizon,
    tableEdge,
    sunX,
    sunSize: 1300,
    far: hillsPath(random, horizon, 16),
    water: `<rect x="-200" y="${fixed(horizon)}" width="${VIEW_WIDTH + 400}" height="${fixed(VIEW_HEIGHT - horizon + 200)}" class="water"/>${sunReflection(random, sunX, horizon, tableEdge)}`,
    lights: stringLights(random, random.integer(6, 9), random.between(40, 120)),
    row: row.join(''),
    near: '',
  };
}

/**
 * The scene per name is chosen, not hashed, so the three sign-in images that rotate (SPEC §9) are
 * three different places and no scene dominates; the details inside each scene are seeded.
 */
const SCENE_OF: Record<BackgroundName, (random: SeededRandom) => Scene> = {
  unknownUser: terrace,
  unknownUser1: terrace,
  unknownUser2: candlelit,
  unknownUser3: seaside,
  wrongPasswordUnknownUser: candlelit,
  userLockedAfterTooManyFailedAttempts: seaside,
  unlock: terrace,
  emailVerification: seaside,
  userLogoff: seaside,
  forgotPassword: candlelit,
  expiredLink: candlelit,
  resetPassword: terrace,
  fallbackLandingPage: seaside,
};

/** Lays out the scene for a name; the same name always gives the same picture. */
export function sceneFor(name: BackgroundName): Scene {
  return SCENE_OF[name](seededRandom(hashName(name)));
}
