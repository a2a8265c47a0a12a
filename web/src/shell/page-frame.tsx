import './page-frame.css';
import type { PageKind } from '@keycard/contract';
import { type ReactNode, useContext, useRef } from 'react';
import { useText } from '../text/use-text.ts';
import { Background } from './background.tsx';
import { Footer } from './footer.tsx';
import { useArrivalCard } from './page-arrival.tsx';
import { RoutePageContext } from './route-page.ts';
import { useBackground } from './use-background.ts';
import { useHeadingTitle } from './use-heading-title.ts';
import { useTheme } from './use-theme.ts';

interface PageFrameProps {
  /**
   * SPEC §3 page kind, which chooses the background (SPEC §7 Images): the route's unless a screen
   * switches it (SPEC §4: the sign-in page after a failed login).
   */
  readonly pageKind?: PageKind;
  /** The page's content card; it holds the page's one h1. */
  readonly children: ReactNode;
  /** Page links in the footer (SPEC §2: the sign-in page's forgot-password link). */
  readonly footerLinks?: ReactNode;
}

/**
 * Every screen's frame: header with the product name, the content card on a solid surface over the
 * background image, and the footer. End-to-end tests read `data-page-kind` and `data-background`
 * here and `data-theme` on <html>. The tab title follows the card's heading, which takes focus when
 * the page is arrived at by a move inside the SPA (page-arrival.tsx).
 */
export function PageFrame({ pageKind: switchedKind, children, footerLinks }: PageFrameProps) {
  const routePage = useContext(RoutePageContext);
  const pageKind = switchedKind ?? routePage?.pageKind;
  if (!pageKind) throw new Error('PageFrame needs a route page or a pageKind');
  const { t } = useText();
  const theme = useTheme();
  const background = useBackground(theme, pageKind);
  const card = useRef<HTMLDivElement>(null);
  useHeadingTitle(card, `${t('productNamePart1')}${t('productNamePart2')}`);
  useArrivalCard(card);

  return (
    <div className="frame" data-page-kind={pageKind} data-background={background.layers[background.active]}>
      <Background {...background} />
      <header className="frame__header">
        <p className="brand">
          {t('productNamePart1')}
          <span className="brand__accent">{t('productNamePart2')}</span>
        </p>
      </header>
      <main className="frame__main">
        <div className="card" ref={card}>
          {children}
        </div>
      </main>
      <Footer>{footerLinks}</Footer>
    </div>
  );
}
