import './done-state.css';
import { type CSSProperties, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useText } from '../text/use-text.ts';
import { type RedirectTarget, useDelayedRedirect } from './delayed-redirect.ts';

/** Whole seconds left of `delayMs` after `elapsedMs`, rounded up: 12500 ms start at 13. */
export function secondsLeft(delayMs: number, elapsedMs: number): number {
  return Math.max(0, Math.ceil((delayMs - elapsedMs) / 1000));
}

/**
 * The seconds left of `delayMs`, counted down from mount: each step lands when the rounded-up value
 * changes, so the last one shows 0 as the delay ends.
 */
function useSecondsLeft(delayMs: number): number {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (elapsed >= delayMs) return;
    const untilNext = (delayMs - elapsed) % 1000 || 1000;
    const timer = setTimeout(() => setElapsed(elapsed + untilNext), untilNext);
    return () => clearTimeout(timer);
  }, [elapsed, delayMs]);
  return secondsLeft(delayMs, elapsed);
}

interface CountdownProps {
  readonly delayMs: number;
  readonly onGo: () => void;
}

/**
 * The way on: a primary button that goes now, the seconds left shown (a timer, so not read out at
 * each tick) and said once, politely, in a live region that is empty on mount so the sentence is
 * announced as it arrives.
 */
function Countdown({ delayMs, onGo }: CountdownProps) {
  const { t } = useText();
  const seconds = useSecondsLeft(delayMs);
  const total = secondsLeft(delayMs, 0);
  const [announced, setAnnounced] = useState(false);
  useEffect(() => setAnnounced(true), []);
  const delayStyle = { '--done-state-delay': `${delayMs}ms` } as CSSProperties;
  return (
    <>
      <div className="done-state__next">
        <button type="button" className="button" onClick={onGo}>
          {t('continueNow')}
        </button>
        <p role="timer" className="done-state__countdown">
          {t('redirectCountdown', { seconds })}
        </p>
      </div>
      <div className="done-state__progress" style={delayStyle} aria-hidden="true" />
      {/* Read by assistive technology: the visible seconds say the same. */}
      <p aria-live="polite" className="visually-hidden">
        {announced ? t('redirectAnnouncement', { seconds: total }) : ''}
      </p>
    </>
  );
}

export interface DoneStateProps {
  /** Names what happened. */
  readonly heading: string;
  /** SPEC §4's caption of the outcome, when it has one besides the heading. */
  readonly caption: string | null;
  /** Where the browser goes after the delay; null when it stays (a sign-out without a redirect). */
  readonly target: RedirectTarget | null;
  /** SPEC §9: REDIRECT_DELAY_MS after an action, LOGOUT_REDIRECT_DELAY_MS after a sign-out. */
  readonly delayMs: number;
}

/**
 * The state after an action succeeded (SPEC §4): its heading takes focus as it appears (what had focus,
 * a form or a progress message, is gone), the caption follows, then the way on with its countdown; the
 * browser follows the target after the delay unless the person goes first.
 */
export function DoneState({ heading, caption, target, delayMs }: DoneStateProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const goNow = useDelayedRedirect(target, delayMs);
  useLayoutEffect(() => headingRef.current?.focus(), []);
  return (
    <>
      <h1 ref={headingRef} tabIndex={-1} className="done-state__heading">
        {heading}
      </h1>
      {caption ? <p className="done-state__caption">{caption}</p> : null}
      {target ? <Countdown delayMs={delayMs} onGo={goNow} /> : null}
    </>
  );
}
