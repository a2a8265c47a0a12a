import '../test-support/dom.ts';
import { act, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useCallOnce } from './use-call-once.ts';

/** Calls `call` for `key`, re-rendering on demand with a new closure each time. */
function Probe({ call, keyOf }: { readonly call: (key: string) => Promise<string>; readonly keyOf: string }) {
  const [renders, setRenders] = useState(0);
  const state = useCallOnce(() => call(keyOf), keyOf);
  return (
    <button type="button" onClick={() => setRenders(renders + 1)}>
      {state.status === 'ready' ? state.value : state.status}
    </button>
  );
}

function deferredCalls() {
  const pending = new Map<string, (value: string) => void>();
  const call = vi.fn((key: string) => new Promise<string>((resolve) => pending.set(key, resolve)));
  // Async act: the answer's then-callbacks run, and their updates render, inside the act scope.
  const answer = (key: string, value: string) => act(async () => pending.get(key)?.(value));
  return { call, answer };
}

describe('useCallOnce', () => {
  it('calls once per key however often the component renders, and follows the answer', async () => {
    const { call, answer } = deferredCalls();
    render(<Probe call={call} keyOf="a" />);
    expect(screen.getByRole('button').textContent).toBe('loading');
    await act(async () => screen.getByRole('button').click());
    await act(async () => screen.getByRole('button').click());
    await waitFor(() => expect(call).toHaveBeenCalledTimes(1));
    await answer('a', 'done a');
    expect((await screen.findByText('done a')).tagName).toBe('BUTTON');
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('reports a failed call as failed', async () => {
    render(<Probe call={() => Promise.reject(new Error('no'))} keyOf="a" />);
    expect(await screen.findByText('failed')).toBeTruthy();
  });

  it('starts over for a new key and drops the late answer of the old one', async () => {
    const { call, answer } = deferredCalls();
    const view = render(<Probe call={call} keyOf="a" />);
    await waitFor(() => expect(call).toHaveBeenCalledTimes(1));
    view.rerender(<Probe call={call} keyOf="b" />);
    await waitFor(() => expect(call).toHaveBeenLastCalledWith('b'));
    await answer('a', 'done a');
    expect(screen.getByRole('button').textContent).toBe('loading');
    await answer('b', 'done b');
    expect(await screen.findByText('done b')).toBeTruthy();
  });
});
