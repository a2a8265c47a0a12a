import '../test-support/dom.ts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ComponentType, lazy, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { renderWithTexts } from '../test-support/texts.tsx';
import { ModalDialog } from './modal-dialog.tsx';

/** Dialog content whose file the server no longer has (a rolling deploy answered 404). */
const MissingChunk = lazy<ComponentType>(() =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/imprint.js')),
);

function Throws(): never {
  throw new Error('render failed');
}

/** A page with a field, and a dialog over it showing `Content`. */
function PageWithDialog({ Content }: { readonly Content: ComponentType }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <label>
        typed
        <input />
      </label>
      <button type="button" onClick={() => setOpen(true)}>
        open
      </button>
      {open ? (
        <ModalDialog title="imprintLabel" onClose={() => setOpen(false)}>
          <Content />
        </ModalDialog>
      ) : null}
    </>
  );
}

let consoleError: MockInstance<typeof console.error>;

// React reports every error a boundary catches on the console: expected here.
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  consoleError.mockRestore();
});

describe('ModalDialog with content that fails', () => {
  it.each([
    ['fails to load', MissingChunk],
    ['throws while rendering', Throws],
  ] as const)(
    'says so in the dialog when its content %s, keeping the page and what was typed',
    async (_, Content) => {
      const user = userEvent.setup();
      renderWithTexts(<PageWithDialog Content={Content} />);
      await user.type(screen.getByRole('textbox', { name: 'typed' }), 'ada@example.test');
      await user.click(screen.getByRole('button', { name: 'open' }));

      const dialog = screen.getByRole('dialog', { name: 'imprintLabel' });
      expect((await within(dialog).findByRole('alert')).textContent).toBe('somethingWentWrong');

      await user.click(within(dialog).getByRole('button', { name: 'closeLabel' }));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect((screen.getByRole('textbox', { name: 'typed' }) as HTMLInputElement).value).toBe(
        'ada@example.test',
      );
    },
  );
});
