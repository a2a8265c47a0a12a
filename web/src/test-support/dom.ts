import { cleanup } from '@testing-library/preact';
import { afterEach } from 'vitest';

/**
 * Imported by every DOM test: unmounts after each test (vitest runs without globals, so Testing
 * Library cannot register this itself) and gives jsdom the <dialog> methods it lacks.
 */
afterEach(cleanup);

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
