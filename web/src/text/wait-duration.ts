import type { Language } from '@keycard/contract';

/**
 * A wait in seconds as the person reads it in `language`: "45 seconds", "2 minutes" (rounded up, so
 * the wait shown is never shorter than asked), from the browser's own unit names (Intl).
 */
export function waitDuration(seconds: number, language: Language): string {
  const whole = Math.max(1, Math.ceil(seconds));
  const [unit, amount] =
    whole < 60 ? (['second', whole] as const) : (['minute', Math.ceil(whole / 60)] as const);
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(amount);
}
