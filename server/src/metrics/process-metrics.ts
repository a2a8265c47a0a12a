import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * prom-client's default metrics of this process (memory, heap, CPU, event-loop delay, handles,
 * garbage collection), in a registry of their own made at the first scrape. They describe the
 * process, not one app: made once, however many apps a process builds (tests build hundreds), since
 * each set keeps an event-loop monitor and a garbage-collection observer running for good. Not
 * prom-client's global registry, so nothing else in the process can add to or clash with them.
 */
export function processRegistry(): Registry {
  if (registry === undefined) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
