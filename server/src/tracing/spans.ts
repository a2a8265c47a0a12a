import type { Attributes } from '@opentelemetry/api';

/**
 * Manual spans of the service (argon2, SMTP, upstream identity providers, PGlite queries). Without
 * OTEL_EXPORTER_OTLP_ENDPOINT nothing is installed here and `traced` just runs the work: the
 * OpenTelemetry packages are never loaded (only their types are imported), so tracing that is off
 * costs one property read per call.
 *
 * Attributes name what was done and where (a host, a provider id, a SQL statement with its
 * placeholders), never whom it was done for: no e-mail address, password, code, token or cookie.
 */
export interface SpanOptions {
  readonly attributes?: Attributes;
  /** A call to another service (SMTP server, identity provider, database) rather than in-process work. */
  readonly client?: boolean;
  /** Only within a trace already started (a request, a mail delivery): no stray traces of polling. */
  readonly onlyWithinTrace?: boolean;
}

/** What tracing/start-tracing.ts installs once the SDK runs. */
export interface SpanRunner {
  run<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T>;
  /** Runs `work` outside any request's trace, so background work started by a request is not its child. */
  detached<T>(work: () => T): T;
  /** Exports the spans still buffered and stops recording: the last step of the service's stop. */
  stop(): Promise<void>;
}

let runner: SpanRunner | undefined;

export function installSpanRunner(installed: SpanRunner): void {
  runner = installed;
}

/** Whether spans are recorded at all (OTEL_EXPORTER_OTLP_ENDPOINT set and the SDK started). */
export function tracingOn(): boolean {
  return runner !== undefined;
}

/** Runs `work` in a span named `name`; a rejection marks the span as failed and is passed on. */
export function traced<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  return runner === undefined ? work() : runner.run(name, options, work);
}

/** Runs background work (a mail worker pass) in a trace of its own, not in the request that woke it. */
export function detachedFromRequest<T>(work: () => T): T {
  return runner === undefined ? work() : runner.detached(work);
}

/** Sends the spans still buffered and stops recording; resolves at once when tracing is off. */
export async function stopTracing(): Promise<void> {
  await runner?.stop();
}
