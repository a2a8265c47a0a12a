import { cleanup } from '@testing-library/preact';
import { afterAll, afterEach } from 'vitest';

/**
 * Imported by every DOM test: unmounts after each test (vitest runs without globals, so Testing
 * Library cannot register this itself) and gives jsdom the <dialog> methods it lacks.
 */
afterEach(cleanup);

/**
 * Preact runs effects after the next frame, with a 35 ms timer in case no frame comes. A timer still
 * pending when the file's jsdom is torn down fires into a window without cancelAnimationFrame: an
 * uncaught ReferenceError that fails the whole run although every test passed. Everything is unmounted
 * by now, so nothing schedules another; the timer and the effects it queues run while the window exists.
 */
const PREACT_FRAME_FALLBACK_MS = 35;
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, PREACT_FRAME_FALLBACK_MS + 15));
  await new Promise((resolve) => setTimeout(resolve, 0));
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
