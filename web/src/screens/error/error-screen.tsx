import './error-screen.css';
import {
  ERROR_REASON_PARAM,
  isErrorReference,
  RATE_LIMITED_REASON,
  type TextKey,
  UNAVAILABLE_REASON,
  WAIT_PARAM,
} from '@keycard/contract';
import { IDENTITY_BASE } from '../../api/api.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../api/api-error.ts';
import { applicationTarget, DEFAULT_REDIRECT_PATH, identityUrl } from '../../routing/link-targets.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { hasReturnUrl, readRedirectUrl } from '../../routing/query.ts';
import { HelpContent } from '../../shell/help-content.tsx';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { waitDuration } from '../../text/wait-duration.ts';
import { AppLink } from '../../ui/app-link.tsx';
import { fillNodes } from '../../ui/fill-nodes.tsx';

export interface ErrorScreenProps {
  /** The last path segment of /error/{reference}; shown only when it is a reference the service makes. */
  readonly reference: string | null;
}

interface WayBack {
  readonly to: string;
  readonly label: TextKey;
  /** The identity service answers it with a redirect: a full page load, never a screen of this application. */
  readonly viaService: boolean;
}

/**
 * Where the person can go from here (issue 16): the sign-in page with the query as it is when it has
 * a ReturnUrl (the sign-in they were in), else the application the RedirectUrl names (a local path, or
 * an http(s) URL by way of the service, which checks it against the allow-list), else the default
 * redirect, which the service resolves.
 */
export function wayBack(search: string, base: string = IDENTITY_BASE): WayBack {
  if (hasReturnUrl(search)) return { to: `/${search}`, label: 'goToLoginLabel', viaService: false };
  const application = applicationTarget(readRedirectUrl(search), base);
  if (application) return { to: application, label: 'backToApplication', viaService: false };
  return { to: identityUrl(base, DEFAULT_REDIRECT_PATH), label: 'goToStartPage', viaService: true };
}

/** Why the service sent the person here, when it said: an outage, or too many requests (with the wait). */
function reasonOf(search: string): { unavailable: boolean; waitSeconds: number | null } {
  const query = new URLSearchParams(search);
  const reason = query.get(ERROR_REASON_PARAM);
  const wait = query.get(WAIT_PARAM) ?? '';
  const waitSeconds = /^\d{1,4}$/.test(wait) && Number(wait) > 0 ? Number(wait) : RATE_LIMIT_WINDOW_SECONDS;
  return {
    unavailable: reason === UNAVAILABLE_REASON,
    waitSeconds: reason === RATE_LIMITED_REASON ? waitSeconds : null,
  };
}

/**
 * SPEC §2 /error: "We're sorry!" and "Something went wrong.", and for a refused sign-in request the
 * reference of the service's log line, as text a person can select and quote. When the service sent
 * the person here because its database is unavailable (?reason=unavailable), it says so: trying again
 * in a few minutes will help, where "something went wrong" alone would not tell; as it does when the
 * person's network sent it too many requests (?reason=rate_limited&wait=seconds), with how long to
 * wait. Then a way back and the help contact of the site file, so the page is no dead end.
 */
export function ErrorScreen({ reference }: ErrorScreenProps) {
  const { t, language } = useText();
  const { search } = useLocation();
  const { unavailable, waitSeconds } = reasonOf(search);
  const back = wayBack(search);
  return (
    <PageFrame>
      <h1>{t('errorTitle')}</h1>
      <p>{t('somethingWentWrong')}</p>
      {unavailable ? <p>{t('temporarilyUnavailable')}</p> : null}
      {waitSeconds === null ? null : (
        <p>{t('tooManyRequests', { wait: waitDuration(waitSeconds, language) })}</p>
      )}
      {isErrorReference(reference) ? (
        <p className="error-reference">
          {fillNodes(t('errorReference'), {
            reference: <code className="error-reference__code">{reference}</code>,
          })}
        </p>
      ) : null}
      <p className="error-way-back">
        {back.viaService ? (
          <a href={back.to} className="button">
            {t(back.label)}
          </a>
        ) : (
          <AppLink to={back.to} className="button">
            {t(back.label)}
          </AppLink>
        )}
      </p>
      <section className="error-help" aria-labelledby="error-help-heading">
        <h2 id="error-help-heading">{t('helpLabel')}</h2>
        <HelpContent />
      </section>
    </PageFrame>
  );
}
