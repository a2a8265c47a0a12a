import '../test-support/dom.ts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithTexts } from '../test-support/texts.tsx';
import { PasswordInput } from './password-input.tsx';

function Field() {
  const [value, setValue] = useState('');
  return (
    <>
      <label htmlFor="pw">passwordLabel</label>
      <PasswordInput id="pw" value={value} onValueChange={setValue} autoComplete="current-password" />
    </>
  );
}

function setUp() {
  const user = userEvent.setup();
  renderWithTexts(<Field />);
  return { user, input: screen.getByLabelText('passwordLabel') as HTMLInputElement };
}

describe('PasswordInput', () => {
  it('switches between hidden and shown with aria-pressed, keeping one name', async () => {
    const { user, input } = setUp();
    const toggle = screen.getByRole('button', { name: 'showPassword' });
    expect([input.type, toggle.getAttribute('aria-pressed')]).toEqual(['password', 'false']);
    expect(toggle.getAttribute('aria-controls')).toBe('pw');

    await user.click(toggle);
    expect([input.type, toggle.getAttribute('aria-pressed')]).toEqual(['text', 'true']);
    // Pressed is the state; the name stays "show password", never "hide password, pressed".
    expect(screen.getByRole('button', { name: 'showPassword', pressed: true })).toBe(toggle);

    await user.click(toggle);
    expect([input.type, toggle.getAttribute('aria-pressed')]).toEqual(['password', 'false']);
  });

  it('keeps focus and the caret in the field when toggled with the pointer', async () => {
    const { user, input } = setUp();
    await user.type(input, 'secret');
    input.setSelectionRange(2, 2);
    await user.click(screen.getByRole('button', { name: 'showPassword' }));
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([2, 2]);
    await user.keyboard('X');
    expect(input.value).toBe('seXcret');
  });

  it('keeps focus on the toggle when it is pressed from the keyboard, and takes pastes', async () => {
    const { user, input } = setUp();
    await user.click(input);
    await user.paste('from-clipboard');
    expect(input.value).toBe('from-clipboard');
    await user.tab();
    const toggle = screen.getByRole('button', { name: 'showPassword' });
    expect(document.activeElement).toBe(toggle);
    await user.keyboard(' ');
    expect(input.type).toBe('text');
    expect(document.activeElement).toBe(toggle);
  });
});
