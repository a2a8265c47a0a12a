import { languageFor } from '@keycard/contract';
import { type ReactNode, useEffect, useLayoutEffect, useState } from 'react';
import { api } from '../api/api.ts';
import { retryDelayMs, type StartUpClient, startUp } from './start-up.ts';
import { TextContext, type TextState } from './text-context.ts';

interface TextProviderProps {
  readonly children: ReactNode;
  readonly client?: StartUpClient;
  /** The browser language; `navigator.language` unless a test sets it. */
  readonly browserLanguage?: string;
}

/**
 * Renders nothing until the text resource and the anti-forgery token have both arrived (SPEC §1).
 * A failed start-up is retried with back-off: without texts there is nothing to show an error with.
 */
export function TextProvider({
  children,
  client = api,
  browserLanguage = navigator.language,
}: TextProviderProps) {
  const [state, setState] = useState<TextState | null>(null);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (count: number) => {
      startUp(client, browserLanguage).then(
        (texts) => {
          if (!cancelled) setState({ texts, language: languageFor(browserLanguage) });
        },
        () => {
          if (!cancelled) timer = setTimeout(() => attempt(count + 1), retryDelayMs(count));
        },
      );
    };
    attempt(0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [client, browserLanguage]);

  // Before the first paint, so assistive technology never reads the page in the wrong language.
  // The tab title is the page frame's: each screen's heading (shell/use-heading-title.ts).
  useLayoutEffect(() => {
    if (!state) return;
    document.documentElement.lang = state.language;
  }, [state]);

  return state ? <TextContext value={state}>{children}</TextContext> : null;
}
