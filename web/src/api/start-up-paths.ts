import { answerableErrors } from '@keycard/contract';

/**
 * Paths of the two start-up GET calls (SPEC §7), equal to `getCalls` of the contract (a test pins
 * them). They are repeated here because `getCalls` lives beside the zod schemas, and start-up must
 * not wait for zod.
 */
export const START_UP_PATHS = {
  getResource: '/api/i18n/getresource',
  getCsrfToken: '/api/getcsrftoken',
} as const;

/** The codes the start-up calls can answer: they declare none of their own (a test pins it). */
export const START_UP_ERRORS = answerableErrors('api', { errors: [] });
