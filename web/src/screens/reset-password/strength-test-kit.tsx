import type { TextResource } from '@keycard/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithTexts, TEST_TEXTS } from '../../test-support/texts.tsx';
import { StrengthAdvice, StrengthMeter } from './strength-meter.tsx';
import { usePasswordStrength } from './use-password-strength.ts';

/** The new-password field, its estimate and the estimate's advice, as the reset form wires them. */
function Harness({ displayName }: { readonly displayName: string | null }) {
  const [password, setPassword] = useState('');
  const { feedback, pending } = usePasswordStrength(password, displayName);
  return (
    <>
      <input aria-label="password" value={password} onChange={(event) => setPassword(event.target.value)} />
      <StrengthMeter id="strength" feedback={feedback} pending={pending} />
      <StrengthAdvice id="strength-advice" feedback={feedback} />
    </>
  );
}

/** Renders the field and its meter with the text resource `texts`, with a user-event session. */
export function renderMeter(displayName: string | null = null, texts: TextResource = TEST_TEXTS) {
  const user = userEvent.setup();
  renderWithTexts(<Harness displayName={displayName} />, '/', { texts });
  return { user, field: screen.getByLabelText('password') };
}

/** The meter's element. */
export const meter = () => document.getElementById('strength') as HTMLElement;

/** The element of the estimate's advice. */
export const advice = () => document.getElementById('strength-advice') as HTMLElement;
