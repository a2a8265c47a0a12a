export * from './accounts.ts';
export * from './audit.ts';
export * from './codes.ts';
export * from './federation.ts';
export * from './mail.ts';
export * from './oidc.ts';
export * from './signing-keys.ts';
