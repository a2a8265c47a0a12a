import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { TracingSettings } from '../config.ts';
import { redactingExporter } from './redacting-exporter.ts';
import type { SpanRunner } from './spans.ts';

/** The scope of the manual spans (spans.ts); the instrumentations name their own. */
const TRACER_NAME = 'keycard';
/** A collector that does not answer must not hold a stop past its deadline (shutdown.ts). */
const EXPORT_ON_STOP_MS = 2_000;

/** The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT … itself. */
function otlpExporter(protocol: TracingSettings['protocol']): SpanExporter {
  if (protocol === 'http/json') return new JsonTraceExporter();
  if (protocol === 'grpc') return new GrpcTraceExporter();
  return new ProtobufTraceExporter();
}

/**
 * HTTP request spans from Fastify's own instrumentation, named by the route pattern (`POST
 * /api/login`, `GET /oidc/*`), never by the request's URL: a path or query can hold a code. A request
 * no route matched (the SPA's pages, when no build is served) is named by its method alone. Below it
 * a span for the route handler; hook spans are left out, fewer spans cost less and the request span
 * holds their time. Fastify names plugins by their source text, so the handler spans are renamed.
 */
function fastifyInstrumentation(): FastifyOtelInstrumentation {
  const named = (prefix: string, route: string | undefined) =>
    route === undefined ? prefix : `${prefix} ${route}`;
  return new FastifyOtelInstrumentation({
    registerOnInitialization: true,
    instrumentHooks: false,
    recordExceptions: false,
    requestHook: (span, request) => {
      span.updateName(named(request.method, request.routeOptions.url));
    },
    lifecycleHook: (span, { hookName, request }) => {
      span.updateName(named(hookName, request.routeOptions.url));
      span.setAttribute('hook.name', hookName);
    },
  });
}

/**
 * PostgreSQL queries (DATABASE_URL): the statement with its $1 … placeholders, never the values bound
 * to them (enhancedDatabaseReporting stays off). Only within a trace, so the mail worker's polling
 * every few seconds does not start traces of its own.
 */
function pgInstrumentation(): PgInstrumentation {
  return new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false });
}

function spanRunner(sdk: NodeSDK): SpanRunner {
  const tracer = trace.getTracer(TRACER_NAME);
  return {
    run(name, options, work) {
      if (options.onlyWithinTrace && trace.getSpan(context.active()) === undefined) return work();
      const kind = options.client ? SpanKind.CLIENT : SpanKind.INTERNAL;
      return tracer.startActiveSpan(name, { kind, attributes: options.attributes }, async (span) => {
        try {
          return await work();
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
          throw error;
        } finally {
          span.end();
        }
      });
    },
    detached: (work) => context.with(ROOT_CONTEXT, work),
    stop: async () => {
      let timer: NodeJS.Timeout | undefined;
      const givenUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, EXPORT_ON_STOP_MS);
      });
      await Promise.race([sdk.shutdown(), givenUp]).finally(() => clearTimeout(timer));
    },
  };
}

/**
 * Starts the OpenTelemetry SDK (tracing/start-if-configured.ts calls this before the service's
 * modules are evaluated) and answers the runner of the manual spans. The SDK reads the standard
 * OTEL_* variables: sampler, batch delays, resource attributes, propagators. Only traces are
 * exported; metrics have their own endpoint.
 */
export function startTracing(settings: TracingSettings): SpanRunner {
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES are merged over this by the SDK's detectors.
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': settings.serviceName })),
    traceExporter: redactingExporter(otlpExporter(settings.protocol)),
    instrumentations: [fastifyInstrumentation(), pgInstrumentation()],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return spanRunner(sdk);
}
