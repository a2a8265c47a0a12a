import type { DataPolicyText } from './data-policy/types.ts';

/** SPEC §1: German when the browser language starts with "de", otherwise English. */
export function dataPolicyLanguage(browserLanguage: string): 'de' | 'en' {
  return browserLanguage.toLowerCase().startsWith('de') ? 'de' : 'en';
}

/** Loads only the policy of that language, on demand, so neither text weighs on start-up. */
export async function loadDataPolicy(browserLanguage: string): Promise<DataPolicyText> {
  const module =
    dataPolicyLanguage(browserLanguage) === 'de'
      ? await import('./data-policy/de.ts')
      : await import('./data-policy/en.ts');
  return module.default;
}
