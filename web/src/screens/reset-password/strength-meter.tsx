import type { TextKey } from '@keycard/contract';
import { useText } from '../../text/use-text.ts';
import type { StrengthFeedback } from './strength-estimator.ts';

/** The level of each score, 0 to 4. */
const LEVELS: readonly [TextKey, TextKey, TextKey, TextKey, TextKey] = [
  'passwordStrengthVeryWeak',
  'passwordStrengthWeak',
  'passwordStrengthFair',
  'passwordStrengthStrong',
  'passwordStrengthVeryStrong',
];

interface StrengthMeterProps {
  /** The new-password field is described by it. */
  readonly id: string;
  readonly feedback: StrengthFeedback | null;
  /** A password is typed and its estimate is still to come (the typing has not paused yet). */
  readonly pending?: boolean;
}

/**
 * The estimate of the password as it is typed: its level in words beside a meter (the words carry
 * it, not the colour). Empty until there is one; while one is `pending`, its level line and meter
 * keep their place, hidden, so what follows (Reset) does not move under a pointer when the estimate
 * arrives. The advice that comes with an estimate is StrengthAdvice's, placed after Reset: its
 * length changes with each estimate, which would move Reset under a pointer just as well.
 */
export function StrengthMeter({ id, feedback, pending = false }: StrengthMeterProps) {
  const { t } = useText();
  if (!feedback && !pending) return <div id={id} className="strength" />;
  // The stand-in is the lowest level: one level line and the meter.
  const score = feedback?.score ?? 0;
  return (
    <div
      id={id}
      className={feedback ? `strength strength--${feedback.score}` : 'strength strength--pending'}
      data-score={feedback?.score}
    >
      <p className="strength__level">
        {t('passwordStrengthLabel')} <strong>{t(LEVELS[score])}</strong>
      </p>
      <meter
        className="strength__meter"
        min={0}
        max={4}
        low={2}
        high={3}
        optimum={4}
        value={score}
        aria-hidden
      />
    </div>
  );
}

interface StrengthAdviceProps {
  /** The new-password field is described by it too. */
  readonly id: string;
  readonly feedback: StrengthFeedback | null;
}

/** The estimator's warning and suggestions for the estimate shown, in the text resource's words. */
export function StrengthAdvice({ id, feedback }: StrengthAdviceProps) {
  const { t } = useText();
  return (
    <div id={id} className="strength__advice">
      {feedback?.warning ? <p className="strength__warning">{t(feedback.warning)}</p> : null}
      {feedback && feedback.suggestions.length > 0 ? (
        <ul className="strength__suggestions">
          {feedback.suggestions.map((suggestion) => (
            <li key={suggestion}>{t(suggestion)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
