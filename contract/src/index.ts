// Plain values and types: free of zod, so the SPA bundles none of it.
export * from './call-errors.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './page-kinds.ts';
// Rules both sides apply (SPEC §5, DESIGN §2), zod-free like the values above.
export * from './rules/authorization-hints.ts';
export * from './rules/error-reference.ts';
export * from './rules/local-path.ts';
export * from './rules/password-composition.ts';
export * from './rules/password-strength.ts';
export * from './rules/plain-text.ts';
// Schemas: used by the server to validate, and by tests to check answers.
export * from './schemas/admin-api.ts';
export * from './schemas/admin-fields.ts';
export * from './schemas/calls.ts';
export * from './schemas/error-body.ts';
export * from './schemas/plain-text.ts';
export * from './schemas/text-resource.ts';
export * from './schemas/verification-type.ts';
export * from './text-keys.ts';
export * from './verification-types.ts';
