import { type AdminCall, answerableErrors } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type InputPart, parseInput } from '../../errors/parse-input.ts';
import type { ProvisioningDeps } from '../../provisioning/provisioning-deps.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A call's validated path parameters, query and body. */
export interface AdminCallInput<C extends AdminCall> {
  readonly params: Parsed<C['params']>;
  readonly query: Parsed<C['query']>;
  readonly body: Parsed<C['body']>;
}

/** Runs one provisioning operation for a validated call; its refusals are thrown (errors/). */
export type AdminCallHandler<C extends AdminCall> = (
  input: AdminCallInput<C>,
  deps: ProvisioningDeps,
) => Promise<z.input<C['response']>>;

/** The provisioning deps of one request: the service's, with the calling client as the audit actor. */
export type RequestDeps = (request: FastifyRequest) => ProvisioningDeps;

/** What a call that declares no query or body accepts there: nothing, so a field sent is refused, not ignored. */
const NOTHING = z.strictObject({});

function parsePart<S extends z.ZodType | undefined>(schema: S, value: unknown, part: InputPart): Parsed<S> {
  if (schema !== undefined) return parseInput(schema, value, part) as Parsed<S>;
  parseInput(NOTHING, value, part);
  return undefined as Parsed<S>;
}

/**
 * Declares one call of the contract (STYLE §5: parse, call one operation, answer its value). A
 * refusal is thrown and answered by the one error handler (error-handler.ts) as `{ code, message,
 * field? }` with its status, and only if the call declares its code; an answer that does not match
 * the contract's schema is a bug and fails as a 500.
 */
export function adminCall<C extends AdminCall>(
  scope: FastifyInstance,
  call: C,
  depsOf: RequestDeps,
  handler: AdminCallHandler<C>,
): void {
  scope.route({
    method: call.method,
    url: call.path.replace(/\{(\w+)\}/g, ':$1'),
    config: { errors: answerableErrors('admin', call) },
    handler: async (request, reply) => {
      const input = {
        params: parsePart(call.params, request.params, 'params'),
        query: parsePart(call.query, request.query, 'query'),
        body: parsePart(call.body, request.body ?? {}, 'body'),
      } as AdminCallInput<C>;
      const value = await handler(input, depsOf(request));
      reply.code(call.status);
      return call.response.parse(value);
    },
  });
}
