import type { RouteModule } from '../route-module.ts';
import { csrfTokenRoutes } from './csrf-token.ts';
import { defaultRedirectRoutes } from './default-redirect.ts';
import { federationRoutes } from './federation.ts';
import { i18nRoutes } from './i18n.ts';
import { logoutRoutes } from './logout.ts';
import { recoveryRoutes } from './recovery.ts';
import { signInRoutes } from './sign-in.ts';

/** Every API route module, in registration order. A new call group is one module added here. */
export const apiRoutes: readonly RouteModule[] = [
  csrfTokenRoutes,
  i18nRoutes,
  signInRoutes,
  federationRoutes,
  logoutRoutes,
  recoveryRoutes,
  defaultRedirectRoutes,
];
