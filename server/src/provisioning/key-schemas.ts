import { z } from 'zod';

/** Inputs of the signing key operations (key-operations.ts); their answer is the contract's signingKeysView. */
export { type SigningKeysView, signingKeysView } from '@keycard/contract';

/** keys:list takes nothing. */
export const listSigningKeysInput = z.strictObject({});
export type ListSigningKeysInput = z.input<typeof listSigningKeysInput>;

/** keys:rotate takes nothing: the new keys are of the types that sign now, the periods configured. */
export const rotateSigningKeysInput = z.strictObject({});
export type RotateSigningKeysInput = z.input<typeof rotateSigningKeysInput>;
