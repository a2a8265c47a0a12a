import { LIGHT_THEME_FROM_HOUR, type Theme } from '@keycard/contract';

/**
 * SPEC §9, literally: dark before 18:00 local time, light from 18:00. The rule has no morning
 * switch, so the hours after midnight are dark again.
 */
export function themeAt(date: Date): Theme {
  return date.getHours() < LIGHT_THEME_FROM_HOUR ? 'dark' : 'light';
}
