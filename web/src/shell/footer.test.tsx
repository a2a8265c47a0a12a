import '../test-support/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithTexts } from '../test-support/texts.tsx';
import { Footer } from './footer.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function openDialog(): HTMLDialogElement {
  const dialog = document.querySelector('dialog');
  if (!dialog?.open) throw new Error('no open dialog');
  return dialog;
}

describe('Footer dialogs', () => {
  it('offers the three dialogs in a labelled navigation', () => {
    renderWithTexts(<Footer />);
    const nav = screen.getByRole('navigation', { name: 'footerNavigationLabel' });
    const names = Array.from(nav.querySelectorAll('button'), (button) => button.textContent);
    expect(names).toEqual(['helpLabel', 'imprintLabel', 'dataPolicyLabel']);
  });

  it('opens Help as a labelled modal dialog with phone and e-mail links, focus inside', async () => {
    const user = userEvent.setup();
    renderWithTexts(<Footer />);
    await user.click(screen.getByRole('button', { name: 'helpLabel' }));

    const dialog = openDialog();
    const titleId = dialog.getAttribute('aria-labelledby');
    expect(titleId && document.getElementById(titleId)?.textContent).toBe('helpLabel');
    expect(dialog.contains(document.activeElement)).toBe(true);
    const phone = screen.getByRole('link', { name: '+49 30 1234567-0' });
    expect(phone.getAttribute('href')).toBe('tel:+493012345670');
    expect(screen.getByRole('link', { name: 'help@keycard.test' }).getAttribute('href')).toBe(
      'mailto:help@keycard.test',
    );
  });

  it('closes with the close button and returns focus to the opener', async () => {
    const user = userEvent.setup();
    renderWithTexts(<Footer />);
    const opener = screen.getByRole('button', { name: 'helpLabel' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'closeLabel' }));
    expect(document.querySelector('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes when the browser closes it on Escape', async () => {
    const user = userEvent.setup();
    renderWithTexts(<Footer />);
    const opener = screen.getByRole('button', { name: 'dataPolicyLabel' });
    await user.click(opener);
    // jsdom has no Escape handling for dialogs; a browser fires `close` after `cancel`.
    fireEvent(openDialog(), new Event('close'));
    expect(document.querySelector('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('opens the imprint with the host in the legal hint and the licence table', async () => {
    const fetch = vi.fn(async () => Response.json([{ name: 'react', version: '19.3.1', license: 'MIT' }]));
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithTexts(<Footer />);
    await user.click(screen.getByRole('button', { name: 'imprintLabel' }));

    expect(await screen.findByRole('cell', { name: '19.3.1' })).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith('/licenses.json');
    expect(screen.getByText(`imprintLegalHint ${window.location.host}`)).toBeTruthy();
    expect(screen.getByText('imprintVat')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'imprintComponentLicense' })).toBeTruthy();
  });

  it('shows the data policy of the browser language', async () => {
    vi.stubGlobal('navigator', { ...navigator, language: 'de-AT' });
    const user = userEvent.setup();
    renderWithTexts(<Footer />);
    await user.click(screen.getByRole('button', { name: 'dataPolicyLabel' }));
    const german = (await import('./data-policy/de.ts')).default;
    await waitFor(() => expect(screen.getByRole('heading', { level: 3 }).textContent).toBe(german.title));
    expect(screen.getAllByRole('heading', { level: 4 })).toHaveLength(german.sections.length);
    expect(screen.getByText('29.05.2018').closest('p')?.textContent).toBe('dataPolicyDated 29.05.2018');
    // The page's texts may be in another language: the policy's parts name theirs.
    expect(screen.getByRole('heading', { level: 3 }).getAttribute('lang')).toBe('de');
    for (const heading of screen.getAllByRole('heading', { level: 4 })) {
      expect(heading.closest('section')?.getAttribute('lang')).toBe('de');
    }
  });
});
