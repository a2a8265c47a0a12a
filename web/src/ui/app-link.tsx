import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface AppLinkProps {
  /** A local path (navigated inside the SPA) or an absolute http(s) URL (a full page load). */
  readonly to: string;
  readonly children: ReactNode;
  readonly className?: string;
}

/** A link to a target that may be inside the SPA or elsewhere (a RedirectUrl). */
export function AppLink({ to, children, className }: AppLinkProps) {
  if (to.startsWith('/')) {
    return (
      <Link to={to} className={className}>
        {children}
      </Link>
    );
  }
  return (
    <a href={to} className={className}>
      {children}
    </a>
  );
}
