import { Fragment, type ReactNode } from 'react';

/**
 * Like `fillText`, but a placeholder can become an element (a link inside a sentence), so the
 * sentence stays one resource text whose word order each language decides.
 */
export function fillNodes(text: string, values: Readonly<Record<string, ReactNode>>): ReactNode[] {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    const value = name !== undefined && Object.hasOwn(values, name) ? values[name] : part;
    // Parts never move, so their position is a stable key.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    return <Fragment key={index}>{value}</Fragment>;
  });
}
