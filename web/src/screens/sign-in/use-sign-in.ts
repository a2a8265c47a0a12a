import { type CallResponse, isPlausibleEmail } from '@keycard/contract';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api, IDENTITY_BASE } from '../../api/api.ts';
import { ApiError, rateLimitWait } from '../../api/api-error.ts';
import { useLocation, useNavigate } from '../../routing/navigation.tsx';
import { readLoginHint, readReturnUrl } from '../../routing/query.ts';
import { useLive } from '../../ui/use-live.ts';
import { externalProviderUrl, loginMove } from './sign-in-outcome.ts';

export type SignInStep = 'email' | 'password';

/** Where focus goes after a change: the new step's field, or the message of a failed login. */
type FocusTarget = SignInStep | 'error';

/** What a call did: the page stays (ready for the next submit) or the browser is leaving it. */
type Settled = 'stay' | 'leaving';

export interface SignIn {
  readonly step: SignInStep;
  /** The e-mail field; on step 2 the address CheckUsername checked, which the login sends. */
  readonly email: string;
  readonly password: string;
  /** Failed logins since the last back; above 0 is SPEC §4's wrong-password flag. */
  readonly failures: number;
  /** The last login failed and no new attempt has started since: its message shows. */
  readonly showError: boolean;
  /** A call is in flight: submits are blocked (SPEC §4). */
  readonly busy: boolean;
  /** The last login was refused for too many requests: seconds to wait before the next, else null. */
  readonly waitSeconds: number | null;
  /**
   * The last login was refused because the sign-in itself expired (the relying party's request is
   * gone): no password can succeed here, the person must start again from the application.
   */
  readonly expired: boolean;
  readonly emailRef: RefObject<HTMLInputElement | null>;
  readonly passwordRef: RefObject<HTMLInputElement | null>;
  /** The wrong-password header, which takes focus when it appears. */
  readonly errorRef: RefObject<HTMLHeadingElement | null>;
  setEmail(email: string): void;
  setPassword(password: string): void;
  submitEmail(): void;
  submitPassword(): void;
  back(): void;
}

/**
 * The service answered that this sign-in failed (SPEC §8: unauthenticated, verificationType None), so
 * the password typed was not the one. A call that got no such answer (no network, too many requests,
 * the service down, the sign-in expired) says nothing about the password: it stays for the next try.
 */
function passwordRefused(answer: CallResponse<'login'> | undefined): boolean {
  return answer !== undefined && !answer.isAuthenticated;
}

/** A refusal because the sign-in expired, which retrying the password cannot fix. */
function isExpired(refusal: unknown): boolean {
  return refusal instanceof ApiError && refusal.code === 'interaction_expired';
}

/** SPEC §4 sign-in: e-mail step, CheckUsername, password step, login and its results (SPEC §7/§8). */
export function useSignIn(): SignIn {
  const location = useLocation();
  const { search } = location;
  const navigate = useNavigate();
  const returnUrl = readReturnUrl(search);
  // The relying party's login_hint (or the address of a session that must sign in again), which the
  // service put in the ReturnUrl: the e-mail step starts with it.
  const [hint] = useState(() => readLoginHint(returnUrl));
  const [step, setStep] = useState<SignInStep>('email');
  const [email, setEmail] = useState(hint ?? '');
  const [password, setPassword] = useState('');
  const [failures, setFailures] = useState(0);
  const [showError, setShowError] = useState(false);
  const [busy, setBusy] = useState(false);
  const [waitSeconds, setWaitSeconds] = useState<number | null>(null);
  const [expired, setExpired] = useState(false);
  // The state update of `busy` lands after a render; a second Enter can come before that.
  const inFlight = useRef(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLHeadingElement>(null);
  // A new object each time, so the same target twice (a second failure) moves focus again.
  const [focusTarget, setFocusTarget] = useState<{ readonly field: FocusTarget } | null>(null);
  const hintTaken = useRef(false);
  const live = useLive();

  // After the step's fields are in the DOM, before paint, so typing never lands elsewhere.
  useLayoutEffect(() => {
    if (!focusTarget) return;
    const refs = { email: emailRef, password: passwordRef, error: errorRef } as const;
    refs[focusTarget.field].current?.focus();
  }, [focusTarget]);

  // On load the e-mail field has focus; a login hint that goes on to step 2 moves it on from there.
  useLayoutEffect(() => {
    emailRef.current?.focus();
  }, []);

  const release = () => {
    inFlight.current = false;
    setBusy(false);
  };

  // A page restored from the back-forward cache after leaving must accept submits again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `release` only touches a ref and a setter
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => event.persisted && release();
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const exclusive = (call: () => Promise<Settled>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    call().then((settled) => settled === 'stay' && release(), release);
  };

  const submitEmail = () =>
    exclusive(async () => {
      // SPEC §7: without an external provider, or when the call fails, the password step follows.
      // The field is read-only while the call runs, yet an autofill can still change it: the address
      // checked is the one step 2 shows and the login sends.
      const checked = email;
      const body = { Username: checked, ReturnUrl: returnUrl };
      const answer = await api.post('checkUsername', body).catch(() => undefined);
      // The person went elsewhere meanwhile: no hand-off to a provider takes them away from there. The
      // form is ready again, for when it is still on show (Back to another sign-in keeps this screen).
      if (!live(location)) return 'stay';
      const external = answer ? externalProviderUrl(IDENTITY_BASE, answer, checked, returnUrl) : null;
      if (external) {
        window.location.assign(external);
        return 'leaving';
      }
      setEmail(checked);
      setStep('password');
      setFocusTarget({ field: 'password' });
      return 'stay';
    });

  const submitPassword = () =>
    exclusive(async () => {
      // The message of the last failure belongs to that attempt: it goes while this one runs.
      setShowError(false);
      const body = { Username: email, Password: password, ReturnUrl: returnUrl };
      let refusal: unknown;
      const answer = await api.post('login', body).catch((error: unknown) => {
        refusal = error;
        return undefined;
      });
      // The person went elsewhere meanwhile (the forgot-password link): the answer must not move them.
      if (!live(location)) return 'stay';
      const move = loginMove(IDENTITY_BASE, answer, search);
      if (move.kind === 'leave') window.location.assign(move.url);
      if (move.kind === 'route') navigate(move.to);
      if (move.kind !== 'failed') return 'leaving';
      // SPEC §8: the wrong-password header and the changed background, whatever the failure; refused
      // for too many requests, also how long to wait; for an expired sign-in, that it expired. A fresh
      // password field only when the service refused the password.
      setWaitSeconds(rateLimitWait(refusal));
      setExpired(isExpired(refusal));
      setFailures((count) => count + 1);
      setShowError(true);
      if (passwordRefused(answer)) setPassword('');
      setFocusTarget({ field: 'error' });
      return 'stay';
    });

  // A plausible hint goes on by itself, through the same CheckUsername as Next (SPEC §7): the password
  // step, or the organisation's provider for a bound domain. The service decides, not the link;
  // Back on the password step returns to the e-mail to change it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the hint the page opened with
  useEffect(() => {
    if (hintTaken.current || hint === null || !isPlausibleEmail(hint)) return;
    hintTaken.current = true;
    submitEmail();
  }, []);

  const back = () => {
    if (inFlight.current) return;
    setStep('email');
    setFailures(0);
    setShowError(false);
    setWaitSeconds(null);
    setExpired(false);
    setPassword('');
    setFocusTarget({ field: 'email' });
  };

  return {
    step,
    email,
    password,
    failures,
    showError,
    busy,
    waitSeconds,
    expired,
    emailRef,
    passwordRef,
    errorRef,
    setEmail,
    setPassword,
    submitEmail,
    submitPassword,
    back,
  };
}
