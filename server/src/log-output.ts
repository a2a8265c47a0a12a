import pino from 'pino';

/**
 * Production log output: pino's JSON lines on stdout, written about 4 KiB at a time (and at least
 * every second) instead of one write a line, which at one line a request cost the service about a
 * tenth of its time serving files (BENCHMARKS.md, Static delivery). pino writes what is left when
 * the process exits; `flush()` sends it at once, for lines a tool waits for.
 */
export function productionLogStream(dest: number | string = 1): ReturnType<typeof pino.destination> {
  return pino.destination({ dest, minLength: PRODUCTION_LOG_BATCH_BYTES, periodicFlush: 1000 });
}

/** How much of the production log is held before it is written. */
export const PRODUCTION_LOG_BATCH_BYTES = 4096;

/**
 * Development log output: one readable line per log record instead of pino's JSON, so `npm start`
 * reads like a console. Production keeps JSON for log collectors.
 */

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

type LogRecord = Record<string, unknown>;

function field(record: unknown, key: string): unknown {
  return typeof record === 'object' && record !== null ? (record as LogRecord)[key] : undefined;
}

function details(record: LogRecord): string[] {
  const out: string[] = [];
  const req = record.req;
  if (req !== undefined) out.push(`${String(field(req, 'method'))} ${String(field(req, 'url'))}`);
  const status = field(record.res, 'statusCode');
  if (status !== undefined) out.push(String(status));
  if (typeof record.responseTime === 'number') out.push(`${Math.round(record.responseTime)}ms`);
  // The request's id, which its answer's X-Request-Id and an error page's reference show.
  if (typeof record.reqId === 'string') out.push(`[${record.reqId}]`);
  const stack = field(record.err, 'stack');
  if (typeof stack === 'string') out.push(`\n${stack}`);
  return out;
}

/** One JSON log line as "HH:MM:SS [LEVEL] message details"; anything unparsable passes unchanged. */
export function formatLogLine(line: string): string {
  let record: LogRecord;
  try {
    record = JSON.parse(line) as LogRecord;
  } catch {
    return line.trimEnd();
  }
  const time = new Date(typeof record.time === 'number' ? record.time : Date.now())
    .toTimeString()
    .slice(0, 8);
  const level = LEVEL_NAMES[Number(record.level)];
  // A request's line says what the request was; "request completed" would be the same on each.
  const message = record.msg === 'request completed' ? '' : String(record.msg ?? '');
  return [time, level, message, ...details(record)].filter(Boolean).join(' ');
}

/**
 * Standard output for the development log, written without blocking: a line goes out as soon as the
 * write before it has, and lines logged meanwhile go together. process.stdout blocks on a pipe or a
 * file for every line, one line a request. What is still held when the process exits is written then.
 */
function nonBlockingStdout(): { write(text: string): void } {
  const out = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      out.flushSync();
    } catch {
      // Standard output is gone (its reader closed it): there is nowhere left to write.
    }
  });
  return out;
}

/** A pino destination writing formatted lines to `out`; a request's is "GET /path 200 3ms [its id]". */
export function developmentLogStream(out: { write(text: string): unknown } = nonBlockingStdout()): {
  write(line: string): void;
} {
  return {
    write(line) {
      out.write(`${formatLogLine(line)}\n`);
    },
  };
}
