import type { Attributes, SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace';

/**
 * Attributes that can carry what a person typed or was sent: the request target with /unlock/{code}
 * or ?code=… in it, the values bound to a query, headers (cookies, bearer tokens). The route pattern
 * (http.route) and the query text with its placeholders say enough to find a slow call.
 */
const DROPPED_KEYS = new Set([
  'url.full',
  'url.path',
  'url.query',
  'url.original',
  'http.target',
  'http.url',
  'db.postgresql.values',
  // An error's message can quote its input (PostgreSQL: invalid input syntax for type uuid: "…"); its
  // type says enough.
  'exception.message',
  'exception.stacktrace',
]);
const DROPPED_PREFIXES = ['db.query.parameter.', 'http.request.header.', 'http.response.header.'];

function isKept(key: string): boolean {
  return !DROPPED_KEYS.has(key) && !DROPPED_PREFIXES.some((prefix) => key.startsWith(prefix));
}

export function withoutSecretBearing(attributes: Attributes): Attributes {
  return Object.fromEntries(Object.entries(attributes).filter(([key]) => isKept(key)));
}

/** The span as exported: the same, minus the attributes above and any error message. */
export function redactedSpan(span: ReadableSpan): ReadableSpan {
  const status: SpanStatus = { code: span.status.code };
  const events: TimedEvent[] = span.events.map((event) =>
    event.attributes === undefined ? event : { ...event, attributes: withoutSecretBearing(event.attributes) },
  );
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status,
    attributes: withoutSecretBearing(span.attributes),
    links: span.links.map((link) => ({
      ...link,
      attributes: link.attributes && withoutSecretBearing(link.attributes),
    })),
    events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/**
 * The last line of defence before spans leave the process: whatever an instrumentation records,
 * nothing that can hold an address, password, code, token or cookie is exported.
 */
export function redactingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, resultCallback) => exporter.export(spans.map(redactedSpan), resultCallback),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
