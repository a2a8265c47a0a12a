import { answerableErrors, type DeclaresErrors } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseInput } from '../errors/parse-input.ts';

/** The shape of every entry of the contract's `postCalls`. */
export interface PostCallDefinition extends DeclaresErrors {
  readonly path: string;
  readonly request: z.ZodType;
  readonly response: z.ZodType;
}

export type CallHandler<C extends PostCallDefinition> = (
  body: z.output<C['request']>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<z.output<C['response']>>;

/**
 * Declares a POST call of the contract, e.g. `postCall(api, postCalls.login, handler)`: its path, its
 * request schema (400 naming the field), its response schema and its error codes. An answer that
 * does not match the contract is a bug; it fails as a 500 rather than reaching the SPA in a shape its
 * types do not describe, and so does an error code the call does not declare (error-handler.ts).
 */
export function postCall<C extends PostCallDefinition>(
  api: FastifyInstance,
  call: C,
  handler: CallHandler<C>,
): void {
  api.post(call.path, { config: { errors: answerableErrors('api', call) } }, async (request, reply) => {
    const body = parseInput<C['request']>(call.request, request.body, 'body');
    return call.response.parse(await handler(body, request, reply));
  });
}
