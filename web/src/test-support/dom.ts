import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

declare global {
  /** React's test switch: act() flushes its work, and updates that escape act() are reported. */
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

/**
 * Imported by every DOM test. It sets up what Testing Library registers itself only when the runner
 * has globals, which vitest here does not: unmount after each test, and tell React it runs under
 * act(). It also gives jsdom the <dialog> methods it lacks.
 */
afterEach(cleanup);
beforeAll(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
});

if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
    const target =
      this.querySelector<HTMLElement>('[autofocus]') ?? this.querySelector<HTMLElement>('button');
    target?.focus();
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}
