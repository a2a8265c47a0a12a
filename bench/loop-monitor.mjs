// Preloaded into the service under benchmark (node --import): measures event-loop delay and, on
// SIGUSR2, prints the figures since the last report as one JSON line and starts afresh.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
process.on('SIGUSR2', () => {
  const ms = (ns) => Math.round((ns / 1e6) * 10) / 10;
  process.stdout.write(
    `${JSON.stringify({ loopDelay: { maxMs: ms(histogram.max), p99Ms: ms(histogram.percentile(99)) } })}\n`,
  );
  histogram.reset();
});
