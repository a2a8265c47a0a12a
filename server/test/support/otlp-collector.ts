import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One exported span, flattened from OTLP's JSON encoding. */
export interface CollectedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** The instrumentation scope: `@fastify/otel`, `@opentelemetry/instrumentation-pg`, `keycard` … */
  readonly scope: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly resource: Readonly<Record<string, unknown>>;
  readonly status: { readonly code?: number; readonly message?: string };
}

export interface OtlpCollector {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporter posts to /v1/traces under it. */
  readonly endpoint: string;
  /** Every request body exactly as it arrived, to search for what must never leave the service. */
  readonly bodies: readonly string[];
  readonly spans: readonly CollectedSpan[];
  /** Resolves with the first span matching `test`, once it has arrived; fails after `timeoutMs`. */
  waitFor(test: (span: CollectedSpan) => boolean, timeoutMs?: number): Promise<CollectedSpan>;
  close(): Promise<void>;
}

interface AnyValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
  readonly doubleValue?: number;
  readonly boolValue?: boolean;
  readonly arrayValue?: { readonly values?: readonly AnyValue[] };
}
interface KeyValue {
  readonly key: string;
  readonly value: AnyValue;
}
interface ExportRequest {
  readonly resourceSpans?: readonly {
    readonly resource?: { readonly attributes?: readonly KeyValue[] };
    readonly scopeSpans?: readonly {
      readonly scope?: { readonly name?: string };
      readonly spans?: readonly {
        readonly traceId: string;
        readonly spanId: string;
        readonly parentSpanId?: string;
        readonly name: string;
        readonly attributes?: readonly KeyValue[];
        readonly status?: { readonly code?: number; readonly message?: string };
      }[];
    }[];
  }[];
}

function plainValue(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plainValue);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

function attributesOf(list: readonly KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, plainValue(value)]));
}

function spansOf(request: ExportRequest): CollectedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        name: span.name,
        scope: scopeSpans.scope?.name ?? '',
        attributes: attributesOf(span.attributes),
        resource,
        status: span.status ?? {},
      })),
    );
  });
}

/**
 * An OTLP/HTTP receiver for traces in the JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), as a
 * collector would run it: it answers every export with success and keeps what it received.
 */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const bodies: string[] = [];
  const spans: CollectedSpan[] = [];
  const listeners = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const json = request.url === '/v1/traces' && request.headers['content-type'] === 'application/json';
      response.writeHead(json ? 200 : 415, { 'content-type': 'application/json' }).end('{}');
      if (!json) return;
      bodies.push(body);
      spans.push(...spansOf(JSON.parse(body) as ExportRequest));
      for (const listener of listeners) listener();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies,
    spans,
    waitFor(test, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const span = spans.find(test);
          if (span === undefined) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(span);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          const names = [...new Set(spans.map((span) => span.name))].join(', ');
          reject(new Error(`no such span within ${timeoutMs} ms; received: ${names}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
