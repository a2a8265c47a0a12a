/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Identity service base URL; unset means the origin that serves the SPA. */
  readonly VITE_IDENTITY_BASE?: string;
}
