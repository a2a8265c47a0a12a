import type { AdminCall } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AdminDeps } from '../../provisioning/admin-deps.ts';
import type { AdminResult } from '../../provisioning/admin-result.ts';
import { HttpError } from '../http-error.ts';
import { parseInput } from '../parse-input.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A call's validated path parameters, query and body. */
export interface AdminCallInput<C extends AdminCall> {
  readonly params: Parsed<C['params']>;
  readonly query: Parsed<C['query']>;
  readonly body: Parsed<C['body']>;
}

/** Runs one admin operation (admin/*-operations.ts, federation/) for a validated call. */
export type AdminCallHandler<C extends AdminCall> = (
  input: AdminCallInput<C>,
  deps: AdminDeps,
) => Promise<AdminResult<z.input<C['response']>>>;

/** The admin deps of one request: the service's, with the calling client as the audit actor. */
export type RequestDeps = (request: FastifyRequest) => AdminDeps;

function parsePart<S extends z.ZodType | undefined>(
  schema: S,
  value: unknown,
  part: 'params' | 'query' | 'body',
): Parsed<S> {
  return (schema === undefined ? undefined : parseInput(schema, value, part)) as Parsed<S>;
}

/**
 * Declares one call of the contract (STYLE §5: parse, call one domain function, map the result).
 * A refusal becomes `{ code, message, field? }` with its status (invalid_input 400, not_found 404,
 * conflict 409); an answer that does not match the contract's schema is a bug and fails as a 500.
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
    handler: async (request, reply) => {
      const input = {
        params: parsePart(call.params, request.params, 'params'),
        query: parsePart(call.query, request.query, 'query'),
        body: parsePart(call.body, request.body ?? {}, 'body'),
      } as AdminCallInput<C>;
      const result = await handler(input, depsOf(request));
      if (!result.ok) throw new HttpError(result.error.code, result.error.message, result.error.field);
      reply.code(call.status);
      return call.response.parse(result.value);
    },
  });
}
