import { z } from 'zod';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../errors.ts';

export const errorCodeSchema = z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]);

export const errorBodySchema: z.ZodType<ErrorBody> = z.object({
  code: errorCodeSchema,
  message: z.string(),
  field: z.string().optional(),
});
