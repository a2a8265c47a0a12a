import type { Language } from '@keycard/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { StrengthMeter } from './strength-meter.tsx';
import { usePasswordStrength } from './use-password-strength.ts';

/** The new-password field and its estimate, as the reset form wires them. */
function Harness({ displayName }: { readonly displayName: string | null }) {
  const [password, setPassword] = useState('');
  const { feedback, pending } = usePasswordStrength(password, displayName);
  return (
    <>
      <input aria-label="password" value={password} onChange={(event) => setPassword(event.target.value)} />
      <StrengthMeter id="strength" feedback={feedback} pending={pending} />
    </>
  );
}

/** Renders the field and its meter in `language`, with a user-event session. */
export function renderMeter(language: Language, displayName: string | null = null) {
  const user = userEvent.setup();
  renderWithTexts(<Harness displayName={displayName} />, '/', { language });
  return { user, field: screen.getByLabelText('password') };
}

/** The meter's element. */
export const meter = () => document.getElementById('strength') as HTMLElement;
