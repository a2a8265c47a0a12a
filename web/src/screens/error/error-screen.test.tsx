import '../../test-support/dom.ts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { ErrorScreen } from './error-screen.tsx';

describe('ErrorScreen (SPEC §2 /error)', () => {
  it('reads errorTitle as its heading and somethingWentWrong', () => {
    renderWithTexts(<ErrorScreen />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('errorTitle');
    expect(screen.getByText('somethingWentWrong')).toBeTruthy();
  });
});
