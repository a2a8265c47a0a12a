import { TEXT_KEYS, type TextKey, type TextResource } from '@keycard/contract';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { findRoute } from '../app/match-route.ts';
import { type NavigationHistory, NavigationProvider } from '../routing/navigation.tsx';
import { RoutePageContext } from '../shell/route-page.ts';
import { TextContext, type TextState } from '../text/text-context.ts';
import { memoryHistory } from './memory-history.ts';

const PLACEHOLDERS: Partial<Record<TextKey, string>> = {
  loginWelcome: '{product}',
  logoffGreeting: '{userName}',
  incorrectAccessSuggestion1: '{host}',
  imprintLegalHint: '{host}',
  usingPhone: '{phone}',
  usingEmail: '{email}',
  backTo: '{product}',
  passwordLengthRequirement: '{length}',
  passwordRequirementsMissing: '{requirements}',
  dataPolicyDated: '{date}',
  errorReference: '{reference}',
  tooManyRequests: '{wait}',
  redirectCountdown: '{seconds}',
  redirectAnnouncement: '{seconds}',
};

const SITE: Partial<Record<TextKey, string>> = {
  productNamePart1: 'Key',
  productNamePart2: 'card',
  sitePhone: '+49 30 1234567-0',
  siteEmail: 'help@keycard.test',
};

/** A resource whose every text is its own key (plus its placeholder), so tests assert by key. */
export const TEST_TEXTS = Object.fromEntries(
  TEXT_KEYS.map((key) => [key, SITE[key] ?? (PLACEHOLDERS[key] ? `${key} ${PLACEHOLDERS[key]}` : key)]),
) as TextResource;

/**
 * Renders `ui` inside the text context, with the SPA's navigation at `url` (kept in memory, or in the
 * `history` given) and the page of the route there, as the route view gives it to the screen it shows.
 */
export function renderWithTexts(
  ui: ReactElement,
  url = '/',
  state?: Partial<TextState>,
  history: NavigationHistory = memoryHistory(url),
): ReturnType<typeof render> {
  const value: TextState = { texts: TEST_TEXTS, language: 'en', ...state };
  const { pathname, search } = history.location();
  return render(
    <TextContext value={value}>
      <NavigationProvider history={history}>
        <RoutePageContext value={findRoute(pathname, search).page}>{ui}</RoutePageContext>
      </NavigationProvider>
    </TextContext>,
  );
}
