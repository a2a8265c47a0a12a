import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { redactingExporter } from './redacting-exporter.ts';

const CODE = 'kq3V9xZ_7s0dLr1mH2pT4uW6yA8bC0eF2gJ4nP6rS8';

function exportOneSpan(
  record: (span: ReturnType<ReturnType<TracerProvider['getTracer']>['startSpan']>) => void,
) {
  const exported = new InMemorySpanExporter();
  const provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: redactingExporter(exported) })],
  });
  const span = provider.getTracer('test').startSpan('GET /*');
  record(span);
  span.end();
  const [only] = exported.getFinishedSpans();
  if (!only) throw new Error('nothing exported');
  return only;
}

describe('redactingExporter', () => {
  it('drops the request target, query values and headers, and keeps the route and the statement', () => {
    const span = exportOneSpan((span) =>
      span.setAttributes({
        'http.route': '/*',
        'http.request.method': 'GET',
        'url.path': `/unlock/${CODE}`,
        'url.full': `http://localhost:3000/unlock/${CODE}`,
        'url.query': `code=${CODE}`,
        'http.target': `/unlock/${CODE}?x=1`,
        'http.url': `http://localhost:3000/unlock/${CODE}`,
        'http.request.header.cookie': [`__Host-session=${CODE}`],
        'db.query.text': 'select 1 from account where email_normalized = $1',
        'db.query.parameter.0': 'ada@example.com',
        'db.postgresql.values': ['ada@example.com'],
      }),
    );
    expect(span.attributes).toEqual({
      'http.route': '/*',
      'http.request.method': 'GET',
      'db.query.text': 'select 1 from account where email_normalized = $1',
    });
  });

  it("keeps an error's status and type, not its message or stack", () => {
    const span = exportOneSpan((span) => {
      span.recordException(new TypeError(`invalid input syntax for type uuid: "${CODE}"`));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: `invalid input syntax for type uuid: "${CODE}"`,
      });
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['exception', { 'exception.type': 'TypeError' }],
    ]);
    expect(JSON.stringify(span.attributes)).not.toContain(CODE);
  });

  it('passes identity, timing and parentage on unchanged', () => {
    const exported = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: redactingExporter(exported) })],
    });
    const tracer = provider.getTracer('test');
    const parent = tracer.startSpan('POST /api/login');
    tracer.startSpan('argon2.verify', {}, trace.setSpan(context.active(), parent)).end();
    parent.end();
    const [child, request] = exported.getFinishedSpans();
    expect(child?.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(child?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(child?.duration).toEqual(expect.any(Array));
    expect(request?.spanContext()).toEqual(parent.spanContext());
    expect(request?.name).toBe('POST /api/login');
  });
});
