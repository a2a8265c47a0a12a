// Resolve hook for drizzle-kit.mjs: drizzle-orm is resolved as if imported from server/.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const serverUrl = new URL('../package.json', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
    return nextResolve(specifier, { ...context, parentURL: serverUrl });
  }
  return nextResolve(specifier, context);
}

// Loaded with --import on the main thread: install this module as the hook (it then runs off-thread).
if (isMainThread) register(import.meta.url);
