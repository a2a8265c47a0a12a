import { fillText, type Language, type TextKey } from '@keycard/contract';
import { useContext, useMemo } from 'react';
import { TextContext } from './text-context.ts';

export type TextValues = Readonly<Record<string, string | number>>;
export type Translate = (key: TextKey, values?: TextValues) => string;

/** `t(key, values?)`: the resource text of `key` with its {placeholders} filled (SPEC §1). */
export function useText(): { readonly t: Translate; readonly language: Language } {
  const state = useContext(TextContext);
  if (!state) throw new Error('useText is used outside TextProvider');
  return useMemo(() => {
    const { texts, language } = state;
    const t: Translate = (key, values) => (values ? fillText(texts[key], values) : texts[key]);
    return { t, language };
  }, [state]);
}
