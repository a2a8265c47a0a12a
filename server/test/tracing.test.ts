import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectedSpan } from './support/otlp-collector.ts';
import { buildServerIfStale } from './support/service-process.ts';
import { runTracedJourney, type TracedJourney } from './support/traced-journey.ts';

/**
 * Tracing of the compiled service on its embedded database (its PostgreSQL counterpart is in
 * processes-on-postgres.test.ts): spans reach an OTLP collector and carry nothing personal.
 */
describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let journey: TracedJourney;
  let exitCode: number | null;
  const spans = () => journey.collector.spans;
  const named = (name: string) => spans().filter((span) => span.name === name);
  const inTraceOf = (root: CollectedSpan) => spans().filter((span) => span.traceId === root.traceId);

  beforeAll(async () => {
    await buildServerIfStale();
    journey = await runTracedJourney({});
    exitCode = await journey.stop();
  }, 120_000);
  afterAll(() => journey?.dispose());

  it('the stop exports the spans still buffered, and the service exits 0', () => {
    expect(exitCode).toBe(0);
    expect(journey.collector.bodies.length).toBeGreaterThan(0);
    expect(spans().every((span) => span.resource['service.name'] === 'keycard')).toBe(true);
  });

  it('a sign-in with a wrong password is one trace: its request, its queries and its argon2 verification', () => {
    expect(journey.answers.login).toMatchObject({ isAuthenticated: false });
    const [login] = named('POST /api/login').filter(
      (span) => span.attributes['http.response.status_code'] === 200,
    );
    if (!login) throw new Error(`no sign-in span among ${spans().map((span) => span.name)}`);
    expect(login).toMatchObject({ scope: '@fastify/otel', parentSpanId: undefined });
    expect(login.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/login' });
    const trace = inTraceOf(login);
    expect(trace.filter((span) => span.name === 'argon2.verify')).toHaveLength(1);
    const queries = trace.filter((span) => span.name.startsWith('pglite.query:'));
    expect(queries.length).toBeGreaterThan(0);
    // The account is looked up by its address: the statement holds a placeholder, never the address.
    expect(
      queries.some((span) => /"email_normalized" = \$\d+/.test(String(span.attributes['db.query.text']))),
    ).toBe(true);
  });

  it('the forgot-password mail goes out in a trace of its own, with its SMTP send and queries', () => {
    const [request] = named('POST /api/forgotpassword');
    const [send] = named('smtp.send');
    if (!request || !send) throw new Error(`missing spans among ${spans().map((span) => span.name)}`);
    expect(send.attributes).toMatchObject({ 'server.address': '127.0.0.1' });
    expect(send.attributes['server.port']).toEqual(expect.any(Number));
    const delivery = inTraceOf(send);
    expect(send.traceId).not.toBe(request.traceId);
    expect(delivery.find((span) => span.spanId === send.parentSpanId)?.name).toBe('mail.deliver');
    expect(delivery.some((span) => span.name === 'pglite.query:UPDATE')).toBe(true);
  });

  it('requests are named by their route pattern, or by the method alone, never by their URL', () => {
    expect(journey.answers.codeValid).toBe(true);
    const requests = spans().filter((span) => span.attributes['fastify.root'] === '@fastify/otel');
    // The demo, the provider (twice: the demo discovers it), the SPA's token, two sign-ins, the
    // forgot-password call, the mailed link (/resetPassword/1/{code}?code={code}) and its check.
    expect(requests).toHaveLength(9);
    for (const span of requests) {
      const { 'http.request.method': method, 'http.route': route } = span.attributes;
      expect(span.name).toBe(route === undefined ? method : `${method} ${route}`);
    }
    expect(named('POST /api/CheckVerification')).toHaveLength(1);
    expect(named('handler /api/CheckVerification')).toHaveLength(1);
    // The body that was no JSON: the request failed, and the span says so without a message.
    const failed = named('POST /api/login').find(
      (span) => span.attributes['http.response.status_code'] === 400,
    );
    expect(failed?.status).toEqual({ code: 2 });
  });

  it('no span, attribute, status or resource holds the address, the password, the code, a token or a cookie', () => {
    const exported = journey.collector.bodies.join('\n');
    expect(journey.secrets.length).toBeGreaterThan(8);
    for (const secret of journey.secrets) expect(exported).not.toContain(secret);
    expect(exported).not.toMatch(/[\w.+-]+@[\w-]+(\.[\w-]+)*\.[a-z]{2,}/i);
    for (const key of ['url.full', 'url.path', 'url.query', 'http.target', 'exception.message']) {
      expect(exported).not.toContain(`"${key}"`);
    }
  });
});
