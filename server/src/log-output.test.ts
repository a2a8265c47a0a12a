import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  developmentLogStream,
  formatLogLine,
  PRODUCTION_LOG_BATCH_BYTES,
  productionLogStream,
} from './log-output.ts';

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

describe('production log output', () => {
  it('holds lines until 4096 bytes have gathered or it is flushed, then writes them in order', async () => {
    expect(PRODUCTION_LOG_BATCH_BYTES).toBe(4096);
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-log-'));
    const file = path.join(dir, 'log');
    const stream = productionLogStream(file);
    try {
      const line = (index: number) => `${JSON.stringify({ level: 30, msg: `line ${index}` })}\n`;
      stream.write(line(1));
      stream.write(line(2));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readFileSync(file, 'utf8')).toBe('');
      await new Promise<void>((resolve, reject) =>
        stream.flush((error) => (error ? reject(error) : resolve())),
      );
      expect(readFileSync(file, 'utf8')).toBe(line(1) + line(2));

      // A batch that reaches the size is written without a flush.
      const lines = Array.from({ length: 200 }, (_, index) => line(index + 3));
      for (const text of lines) stream.write(text);
      await expect.poll(() => readFileSync(file, 'utf8').length).toBeGreaterThan(4096);
      expect(line(1) + line(2) + lines.join('')).toContain(readFileSync(file, 'utf8'));
    } finally {
      stream.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
