import { useEffect, useRef, useState } from 'react';
import type { LoadState } from './use-load.ts';

interface Started<T> {
  readonly key: string;
  readonly answer: Promise<T>;
}

interface Followed<T> {
  readonly key: string;
  readonly state: LoadState<T>;
}

const LOADING = { status: 'loading' } as const;

/**
 * Like useLoad, but a call is made once per `key` for the life of the component: an effect that runs
 * again for the same key (StrictMode, a re-render with a new `call`) follows the request already
 * sent. For calls that act when a page loads (SPEC §4: unlock, verify new e-mail), where a second
 * request would be a second action.
 */
export function useCallOnce<T>(call: () => Promise<T>, key: string): LoadState<T> {
  const [followed, setFollowed] = useState<Followed<T>>({ key, state: LOADING });
  const started = useRef<Started<T> | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what `call` does
  useEffect(() => {
    let current = true;
    if (started.current?.key !== key) started.current = { key, answer: call() };
    started.current.answer.then(
      (value) => current && setFollowed({ key, state: { status: 'ready', value } }),
      () => current && setFollowed({ key, state: { status: 'failed' } }),
    );
    return () => {
      current = false;
    };
  }, [key]);

  return followed.key === key ? followed.state : LOADING;
}
