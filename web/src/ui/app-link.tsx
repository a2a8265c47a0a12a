import type { MouseEvent, ReactNode } from 'react';
import { useLocation, useNavigate } from '../routing/navigation.tsx';

interface AppLinkProps {
  /** A local path (navigated inside the SPA) or an absolute http(s) URL (a full page load). */
  readonly to: string;
  readonly children: ReactNode;
  readonly className?: string;
  /** Position in a form's numbered tab order (SPEC §2), when the link sits in one. */
  readonly tabIndex?: number;
}

/** A click the browser should handle itself: another button, or a modifier (new tab or window). */
function isBrowserClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
}

/** A link inside the SPA: a real href (copy, open in a new tab), a plain click moves without a page load. */
function LocalLink({ to, children, className, tabIndex }: AppLinkProps) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || isBrowserClick(event)) return;
    event.preventDefault();
    // A link to the page already shown adds no second history entry for it.
    navigate(to, { replace: `${pathname}${search}` === to });
  };
  return (
    <a href={to} className={className} tabIndex={tabIndex} onClick={onClick}>
      {children}
    </a>
  );
}

/** A link to a target that may be inside the SPA or elsewhere (a RedirectUrl). */
export function AppLink({ to, children, className, tabIndex }: AppLinkProps) {
  if (to.startsWith('/')) {
    return (
      <LocalLink to={to} className={className} tabIndex={tabIndex}>
        {children}
      </LocalLink>
    );
  }
  return (
    <a href={to} className={className} tabIndex={tabIndex}>
      {children}
    </a>
  );
}
