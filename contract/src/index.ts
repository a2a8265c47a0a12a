export * from './calls.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './page-kinds.ts';
export * from './text-keys.ts';
export * from './verification-types.ts';
