import { useEffect, useMemo, useState } from 'react';
import type { EstimateStrength, StrengthFeedback } from './strength-estimator.ts';

/** The estimate follows the typing once it pauses this long: an estimate takes up to tens of ms. */
export const STRENGTH_PAUSE_MS = 150;

/** `value` once it has stayed the same for `ms`; an empty value at once. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === '') {
      setSettled(value);
      return;
    }
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export interface PasswordStrength {
  /** The estimate of the password as typed; null while the field is empty or none has come yet. */
  readonly feedback: StrengthFeedback | null;
  /** A password is typed and its estimate is still to come (the typing has not paused, or the estimator is loading). */
  readonly pending: boolean;
}

/**
 * The strength of the password being typed, with the estimator's advice as keys of the text resource.
 * The estimator comes with `import()` after the form shows, so the first paint carries none of its
 * word lists; should it fail to load, nothing is pending any more (no place is kept for an estimate that
 * cannot come), the form works as before and the service still refuses a weak password
 * (policyViolation). `displayName` is the account's name from the code check: a password built from
 * it is weak.
 */
export function usePasswordStrength(password: string, displayName: string | null): PasswordStrength {
  const [estimate, setEstimate] = useState<{ readonly run: EstimateStrength } | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const typed = useSettled(password, STRENGTH_PAUSE_MS);

  useEffect(() => {
    let current = true;
    import('./strength-estimator.ts').then(
      ({ strengthEstimator }) => {
        if (current) setEstimate({ run: strengthEstimator() });
      },
      () => {
        // Not loaded (offline, a new deployment): no meter; the service's check is unchanged.
        if (current) setUnavailable(true);
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const feedback = useMemo(
    () => (estimate && typed !== '' ? estimate.run(typed, { displayName }) : null),
    [estimate, typed, displayName],
  );
  return { feedback, pending: password !== '' && feedback === null && !unavailable };
}
