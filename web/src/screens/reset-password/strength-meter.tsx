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
 * it, not the colour), then the estimator's warning and suggestions. Empty until there is one; while
 * one is `pending`, its level line and meter keep their place, hidden, so what follows (Reset) does
 * not move under a pointer when the estimate arrives.
 */
export function StrengthMeter({ id, feedback, pending = false }: StrengthMeterProps) {
  const { t } = useText();
  if (!feedback) {
    if (!pending) return <div id={id} className="strength" />;
    return (
      <div id={id} className="strength strength--pending">
        <p className="strength__level">
          {t('passwordStrengthLabel')} <strong>{t(LEVELS[0])}</strong>
        </p>
        <meter className="strength__meter" min={0} max={4} value={0} aria-hidden />
      </div>
    );
  }
  return (
    <div id={id} className={`strength strength--${feedback.score}`} data-score={feedback.score}>
      <p className="strength__level">
        {t('passwordStrengthLabel')} <strong>{t(LEVELS[feedback.score])}</strong>
      </p>
      <meter
        className="strength__meter"
        min={0}
        max={4}
        low={2}
        high={3}
        optimum={4}
        value={feedback.score}
        aria-hidden
      />
      {feedback.warning ? <p className="strength__warning">{feedback.warning}</p> : null}
      {feedback.suggestions.length > 0 ? (
        <ul className="strength__suggestions">
          {feedback.suggestions.map((suggestion) => (
            <li key={suggestion}>{suggestion}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
