import { z } from 'zod';
import { VERIFICATION_TYPE_NUMBERS } from '../verification-types.ts';

export const verificationTypeSchema = z.literal([...VERIFICATION_TYPE_NUMBERS], {
  error: 'unknown verification type',
});
