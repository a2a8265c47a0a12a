import { describe, expect, it } from 'vitest';
import { developmentLogStream, formatLogLine } from './log-output.ts';

const at = new Date(2026, 0, 15, 9, 5, 7).getTime();

describe('development log output', () => {
  it('prints the start-up line as plain text', () => {
    const line = JSON.stringify({ level: 30, time: at, msg: 'Keycard listening on http://localhost:3000' });
    expect(formatLogLine(line)).toBe('09:05:07 Keycard listening on http://localhost:3000');
  });

  it('names levels above info and appends the stack of an error', () => {
    const line = JSON.stringify({
      level: 50,
      time: at,
      reqId: '7K2M9QXD',
      msg: 'request failed',
      err: { stack: 'Error: x\n    at y' },
    });
    expect(formatLogLine(line)).toBe('09:05:07 ERROR request failed [7K2M9QXD] \nError: x\n    at y');
  });

  it('writes a request as one line with its id, the reference an error page shows', () => {
    const written: string[] = [];
    const stream = developmentLogStream({
      write: (text: string) => written.push(text),
    } as unknown as NodeJS.WritableStream);
    stream.write(
      JSON.stringify({
        level: 30,
        time: at,
        reqId: '7K2M9QXD',
        req: { method: 'GET', url: '/api/x' },
        res: { statusCode: 200 },
        responseTime: 3.4,
        msg: 'request completed',
      }),
    );
    expect(written).toEqual(['09:05:07 GET /api/x 200 3ms [7K2M9QXD]\n']);
  });

  it('passes lines that are not JSON through unchanged', () => {
    expect(formatLogLine('plain text\n')).toBe('plain text');
  });
});
