import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { Readiness } from './readiness.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this instance takes traffic (http/readiness.ts); main.ts drains it before a stop. */
    readonly readiness: Readiness;
  }
}

/**
 * What a load balancer's probe needs: any Host (it probes by the instance's address, which the
 * answers reveal nothing about; see allowed-hosts.ts), no request limit (it asks every few seconds
 * from one address), and its request line at debug, so the log is not a list of probes.
 */
const PROBE: RouteShorthandOptions = {
  config: { anyHost: true, rateLimit: false, requestLogLevel: 'debug' },
};

function answer(reply: FastifyReply, statusCode: number, body: object): FastifyReply {
  // A cached answer would tell a load balancer (or a proxy between) about a past state.
  return reply.code(statusCode).header('cache-control', 'no-store').send(body);
}

/**
 * GET /health/live: the process answers (200 while it serves at all, draining included, so a
 * supervisor does not restart an instance that is stopping on purpose).
 * GET /health/ready: 200 when every check passes, else 503, naming each check:
 * `{"status":"pass","checks":{"database":{"status":"pass"},"migrations":…,"mailWorker":…}}`; a
 * failed check has a `reason`; while draining the status is `draining`. HEAD answers the same without
 * the body. No cookies, no CSRF: both only read.
 */
export function registerHealth(app: FastifyInstance, readiness: Readiness): void {
  app.decorate('readiness', readiness);
  app.get('/health/live', PROBE, async (_request, reply) => answer(reply, 200, { status: 'pass' }));
  app.get('/health/ready', PROBE, async (_request, reply) => {
    const report = await readiness.check();
    return answer(reply, report.status === 'pass' ? 200 : 503, report);
  });
  // While draining, every answer closes its connection: a load balancer's kept-alive connection
  // would otherwise be cut by the stop while it might be sending the next request on it.
  app.addHook('onRequest', (_request, reply, done) => {
    if (readiness.draining) reply.raw.setHeader('connection', 'close');
    done();
  });
}
