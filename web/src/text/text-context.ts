import type { Language, TextResource } from '@keycard/contract';
import { createContext } from 'react';

/** The start-up text resource and the language it was chosen for. */
export interface TextState {
  readonly texts: TextResource;
  readonly language: Language;
}

export const TextContext = createContext<TextState | null>(null);
