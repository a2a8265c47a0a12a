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
}

/**
 * The estimate of the password as it is typed: its level in words beside a meter (the words carry
 * it, not the colour), then the estimator's warning and suggestions. Empty until there is one.
 */
export function StrengthMeter({ id, feedback }: StrengthMeterProps) {
  const { t } = useText();
  if (!feedback) return <div id={id} className="strength" />;
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
