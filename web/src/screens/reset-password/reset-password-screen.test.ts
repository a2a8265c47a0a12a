import { VerificationType } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { resetHeading } from './reset-password-screen.tsx';

describe('resetHeading', () => {
  it('names the expired-password and invitation cases, and a reset otherwise', () => {
    expect(resetHeading(VerificationType.PasswordExpired)).toBe('expiredPasswordReset');
    expect(resetHeading(VerificationType.VerifyUser)).toBe('setFirstPassword');
    expect(resetHeading(VerificationType.PasswordReset)).toBe('resetPassword');
  });
});
