import type { MouseEvent, ReactNode } from 'react';
import { useLocation, useNavigate } from '../routing/navigation.tsx';

interface AppLinkProps {
  /** A local path (navigated inside the SPA) or an absolute http(s) URL (a full page load). */
  readonly to: string;
  readonly children: ReactNode;
  readonly className?: string;
}

/** A click the browser should handle itself: another button, or a modifier (new tab or window). */
function isBrowserClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
}

/** A link inside the SPA: a real href (copy, open in a new tab), a plain click moves without a page load. */
function LocalLink({ to, children, className }: AppLinkProps) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || isBrowserClick(event)) return;
    event.preventDefault();
    // A link to the page already shown adds no second history entry for it.
    navigate(to, { replace: `${pathname}${search}` === to });
  };
  return (
    <a href={to} className={className} onClick={onClick}>
      {children}
    </a>
  );
}

/** A link to a target that may be inside the SPA or elsewhere (a RedirectUrl). */
export function AppLink({ to, children, className }: AppLinkProps) {
  if (to.startsWith('/')) {
    return (
      <LocalLink to={to} className={className}>
        {children}
      </LocalLink>
    );
  }
  return (
    <a href={to} className={className}>
      {children}
    </a>
  );
}
