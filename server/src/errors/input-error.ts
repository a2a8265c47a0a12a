import { ServiceError } from './service-error.ts';

/**
 * A refused input value (DESIGN §2 Bad input), naming the field at fault. The admin doors answer it
 * as invalid_input; the calls of SPEC §7 as bad_request (error-handler.ts), the SPA's code for it.
 */
export class InputError extends ServiceError {
  constructor(
    message: string,
    field?: string,
    /** Where in the input the problem is, as the schema reports it (the admin socket names `input.<field>`). */
    readonly path: readonly PropertyKey[] = field === undefined ? [] : [field],
  ) {
    super('invalid_input', message, field);
  }
}
