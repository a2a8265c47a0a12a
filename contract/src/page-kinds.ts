/** Page kinds of SPEC §3; each names a background image (SPEC §7 Images). */
export const PAGE_KINDS = [
  'unknownUser',
  'wrongPasswordUnknownUser',
  'userLockedAfterTooManyFailedAttempts',
  'unlock',
  'emailVerification',
  'userLogoff',
  'forgotPassword',
  'expiredLink',
  'resetPassword',
  'fallbackLandingPage',
] as const;

export type PageKind = (typeof PAGE_KINDS)[number];

/** The sign-in start page rotates these three instead of a single unknownUser image (SPEC §7, §9). */
export const SIGN_IN_ROTATION = ['unknownUser1', 'unknownUser2', 'unknownUser3'] as const;

export type BackgroundName = PageKind | (typeof SIGN_IN_ROTATION)[number];

/** Every background file that must exist for each theme. */
export const BACKGROUND_NAMES: readonly BackgroundName[] = [...PAGE_KINDS, ...SIGN_IN_ROTATION];

export const THEMES = ['dark', 'light'] as const;
export type Theme = (typeof THEMES)[number];

/** SPEC §9: background images are 1920 wide. */
export const BACKGROUND_WIDTH = 1920;

/** SPEC §7: /images/background/{theme}/1920/{pageKind}.jpg */
export function backgroundPath(theme: Theme, name: BackgroundName): string {
  return `/images/background/${theme}/${BACKGROUND_WIDTH}/${name}.jpg`;
}
