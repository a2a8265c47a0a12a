import { useLayoutEffect, useRef } from 'react';
import { useLocation } from '../routing/navigation.tsx';
import { hasReturnUrl } from '../routing/query.ts';
import { useText } from '../text/use-text.ts';
import { PageFrame } from './page-frame.tsx';

/**
 * The ways on from a page that failed, as full page loads: a screen whose code did not load (a rolling
 * deploy removed its file, the network dropped) gets a fresh index.html and the current files that
 * way, where a move inside the SPA would meet the same failed load again. First the same page again,
 * which keeps a link's code; then, should it fail again, the sign-in the person was in (with a
 * ReturnUrl, the query as it is), else the start page.
 */
function WayOut() {
  const { t } = useText();
  const { pathname, search } = useLocation();
  const signIn = hasReturnUrl(search);
  return (
    <ul className="card__links">
      <li>
        <a href={`${pathname}${search}`} className="button">
          {t('tryAgainLabel')}
        </a>
      </li>
      <li>
        <a href={signIn ? `/${search}` : '/'}>{t(signIn ? 'goToLoginLabel' : 'goToStartPage')}</a>
      </li>
    </ul>
  );
}

/**
 * What the failed page said, in the error page's words (SPEC §2 /error). Its heading takes focus: the
 * screen that had focus is gone, and this way the failure is read out and the keyboard starts here.
 */
function FailureMessage() {
  const { t } = useText();
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {t('errorTitle')}
      </h1>
      <p>{t('somethingWentWrong')}</p>
      <WayOut />
    </>
  );
}

/** Shown in place of a screen that threw or whose code failed to load: the page keeps its frame. */
export function PageFailure() {
  return (
    <PageFrame>
      <FailureMessage />
    </PageFrame>
  );
}

/** Shown when the frame itself failed too (PageFailure threw): the message alone, never a blank page. */
export function BarePageFailure() {
  return (
    <main className="frame__main">
      <div className="card">
        <FailureMessage />
      </div>
    </main>
  );
}
