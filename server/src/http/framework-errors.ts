import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '../errors/request-id.ts';
import { ServiceError } from '../errors/service-error.ts';
import { answerFor } from './error-handler.ts';
import { isAdminApiPath } from './paths.ts';
import type { SecurityHeaders } from './security-headers.ts';

/**
 * Fastify's answer to a request its router cannot even read (a path with bad percent-encoding such as
 * `%FF`, or a path parameter past its length): it comes before every hook, so by default it has none
 * of DESIGN §2's headers, no request id, a body outside the contract that repeats the whole path
 * (a code in it too), and no log line. This one answers it like any bad input: 400 with the
 * contract's body in the door's terms (bad_request, invalid_input on the admin API), the headers
 * every answer carries (not HSTS: the host has not been checked), the request id and no-store; and
 * `answered` writes its request log line and counts it, which the hooks do for every other answer.
 */
export function frameworkErrors(
  headers: SecurityHeaders,
  answered: (request: FastifyRequest, reply: FastifyReply, seconds: number) => void,
) {
  return (_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    // No hook runs for this answer, and Fastify times none of it: its request log line, its count
    // and its time are written here.
    const started = performance.now();
    reply.raw.once('finish', () => answered(request, reply, (performance.now() - started) / 1000));
    for (const [name, value] of headers.everyAnswer) reply.raw.setHeader(name, value);
    const door = isAdminApiPath(request.url) ? 'admin' : 'api';
    const { answer } = answerFor(new ServiceError('bad_request', 'The address is not valid.'), door);
    reply
      .code(400)
      .header(REQUEST_ID_HEADER, request.id)
      .header('cache-control', 'no-store')
      .send(answer.toBody());
  };
}
