import '../test-support/dom.ts';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithTexts } from '../test-support/texts.tsx';
import { PageFrame } from './page-frame.tsx';

/** A screen whose heading changes, as a done state's does. */
function ChangingHeading() {
  const [done, setDone] = useState(false);
  return (
    <PageFrame pageKind="resetPassword">
      <h1>{done ? 'Password changed' : 'Choose a new password'}</h1>
      <button type="button" onClick={() => setDone(true)}>
        save
      </button>
    </PageFrame>
  );
}

describe('tab title from the page heading', () => {
  it("names the page's heading, then the product", () => {
    renderWithTexts(
      <PageFrame pageKind="expiredLink">
        <h1>Link expired</h1>
      </PageFrame>,
    );
    expect(document.title).toBe('Link expired – Keycard');
  });

  it('follows the heading when the screen changes it', async () => {
    const user = userEvent.setup();
    renderWithTexts(<ChangingHeading />);
    expect(document.title).toBe('Choose a new password – Keycard');
    await user.click(screen.getByRole('button', { name: 'save' }));
    await act(async () => {});
    expect(document.title).toBe('Password changed – Keycard');
  });

  it('is the product alone while the page has no heading yet', () => {
    renderWithTexts(
      <PageFrame pageKind="unlock">
        <p>loading</p>
      </PageFrame>,
    );
    expect(document.title).toBe('Keycard');
  });
});
