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
  return [time, level, String(record.msg ?? ''), ...details(record)].filter(Boolean).join(' ');
}

/**
 * A pino destination writing formatted lines to `out`. Fastify logs each request twice (incoming,
 * completed); here it becomes one line, "GET /path 200 3ms", written when the request completes.
 */
export function developmentLogStream(out: NodeJS.WritableStream = process.stdout): {
  write(line: string): void;
} {
  const pending = new Map<unknown, unknown>();
  return {
    write(line) {
      let record: LogRecord | undefined;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        record = undefined;
      }
      if (record?.msg === 'incoming request') {
        pending.set(record.reqId, record.req);
        return;
      }
      if (record?.msg === 'request completed') {
        const req = pending.get(record.reqId);
        pending.delete(record.reqId);
        out.write(`${formatLogLine(JSON.stringify({ ...record, msg: '', req }))}\n`);
        return;
      }
      out.write(`${formatLogLine(line)}\n`);
    },
  };
}
