import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { REQUEST_ID_HEADER } from '../errors/request-id.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The level of the route's request log line: info unless the route says otherwise. */
    requestLogLevel?: 'debug' | 'info';
  }
}

/**
 * One JSON line per request, written when its answer is complete (so a hijacked answer, the
 * provider's, is logged too): `reqId`, `req` (method, URL without query string or live identifiers:
 * log-serializers.ts, client address), `res.statusCode` and `responseTime` in milliseconds. Fastify's
 * own logging writes two lines a request (incoming, completed).
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    this.answered(request, reply, reply.elapsedTime, error);
  }

  /** The line of an answer that took `responseTime` ms; also for one Fastify times not (framework-errors.ts). */
  answered(request: FastifyRequest, reply: FastifyReply, responseTime: number, error?: Error | null): void {
    const fields = { req: request, res: reply, responseTime };
    if (error) {
      reply.log.error({ ...fields, err: error }, 'request errored');
      return;
    }
    const level = request.routeOptions.config?.requestLogLevel ?? 'info';
    reply.log[level](fields, 'request completed');
  }
}

/**
 * Every answer carries its request's id (errors/request-id.ts), set first of all so refusals by the
 * later hooks carry it too; on the raw response, so the provider's own (hijacked) answers have it.
 */
export function sendRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    done();
  });
}
