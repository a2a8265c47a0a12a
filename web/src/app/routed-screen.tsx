import { type ReactNode, Suspense } from 'react';
import type { AppLocation } from '../routing/navigation.tsx';
import { PageArrival } from '../shell/page-arrival.tsx';
import { BarePageFailure, PageFailure } from '../shell/page-failure.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';

interface RoutedScreenProps {
  /** The location the screen is shown for. */
  readonly location: AppLocation;
  /** The route's screen. */
  readonly children: ReactNode;
}

/**
 * The route's screen with what every screen needs around it: focus and scroll on arrival after a
 * move (PageArrival); a failure page in place of a screen that threw or whose code failed to load,
 * instead of an empty root (tried again at the next location); and no fallback while its code loads
 * (moves are transitions, so the page left stays on show meanwhile).
 */
export function RoutedScreen({ location, children }: RoutedScreenProps) {
  return (
    <PageArrival location={location}>
      <ErrorBoundary fallback={<BarePageFailure />} resetKey={location}>
        <ErrorBoundary fallback={<PageFailure />} resetKey={location}>
          <Suspense fallback={null}>{children}</Suspense>
        </ErrorBoundary>
      </ErrorBoundary>
    </PageArrival>
  );
}
