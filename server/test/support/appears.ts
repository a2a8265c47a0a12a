import { existsSync, watch } from 'node:fs';
import path from 'node:path';

/**
 * Resolves once `name` exists in `dir`, on the file system's own notice of it. Call it before
 * whatever creates the file, so the notice cannot be missed.
 */
export function appears(dir: string, name: string, timeoutMs = 10_000): Promise<void> {
  const file = path.join(dir, name);
  return new Promise((resolve, reject) => {
    const watcher = watch(dir);
    const finish = (error?: Error) => {
      clearTimeout(deadline);
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    const deadline = setTimeout(() => finish(new Error(`${file} did not appear`)), timeoutMs);
    watcher.on('change', (_event, changed) => {
      if (String(changed) === name && existsSync(file)) finish();
    });
    watcher.on('error', finish);
    if (existsSync(file)) finish();
  });
}
