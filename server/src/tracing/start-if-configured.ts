import { createRequire } from 'node:module';
import { tracingSettings } from '../config.ts';
import { installSpanRunner } from './spans.ts';

/**
 * Imported by main.ts before anything else: the OpenTelemetry SDK must be running before the modules
 * it instruments (pg) are evaluated. ES modules are evaluated in import order, but a top-level await
 * here would not hold back main.ts's other imports, so the SDK is loaded synchronously with require.
 * Without OTEL_EXPORTER_OTLP_ENDPOINT nothing of it is loaded at all.
 */
const settings = tracingSettings(process.env);
if (settings !== undefined) {
  const require = createRequire(import.meta.url);
  // The compiled name; run from the sources, tsx finds start-tracing.ts for it.
  const { startTracing } = require('./start-tracing.js') as typeof import('./start-tracing.ts');
  installSpanRunner(startTracing(settings));
}
