import { VerificationType } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { issueCode } from '../src/codes/codes.ts';
import { databaseClock } from '../src/store/clock.ts';
import { type ApiClient, apiClient, STRONG } from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import { createAccount } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * PASSWORD_MIN_SCORE decides how strong a new password must be (default 3, the estimator's 0–4
 * scale). "Passwort!2024" scores 3 and "Welcome@2026" 2 for this account: each side of the boundary.
 */
function resetsWith(minScore: string) {
  let api: ApiClient;
  let serial = 0;
  const service = useTestService({
    env: { PASSWORD_MIN_SCORE: minScore },
    setUp: async ({ app }) => {
      api = await apiClient(app);
    },
  });
  return async (newPassword: string) => {
    serial += 1;
    const { db } = service();
    const account = await createAccount(
      db,
      `score-${minScore}-${serial}@example.com`,
      STRONG,
      'Ada Lovelace',
    );
    const code = await issueCode(db, databaseClock(db), testConfig().codeLifetimes, {
      accountId: account.id,
      type: VerificationType.PasswordReset,
    });
    const response = await api.post('/api/ResetPassword', {
      verificationCode: code,
      verificationType: 1,
      newPassword,
      redirectUrl: null,
    });
    return response.json<{ success: boolean; policyViolation: boolean }>();
  };
}

describe('PASSWORD_MIN_SCORE=4', () => {
  const reset = resetsWith('4');
  it('refuses a password of score 3 and accepts one of score 4', async () => {
    expect(await reset('Passwort!2024')).toMatchObject({ success: false, policyViolation: true });
    expect(await reset('Violet-Harbour-Lantern-93')).toMatchObject({ success: true });
  });
});

describe('PASSWORD_MIN_SCORE=2', () => {
  const reset = resetsWith('2');
  it('accepts a password of score 2 and refuses one of score 1', async () => {
    expect(await reset('Welcome@2026')).toMatchObject({ success: true });
    expect(await reset('AdaLovelace2026!')).toMatchObject({ success: false, policyViolation: true });
  });
});

describe('PASSWORD_MIN_SCORE=0', () => {
  const reset = resetsWith('0');
  it('checks no strength, only the composition and the other rules', async () => {
    expect(await reset('MyKeycard#2026')).toMatchObject({ success: true });
    expect(await reset('CorrectHorse4242')).toMatchObject({ success: false, policyViolation: true });
  });
});
