import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { licensesPlugin } from './build/licenses-plugin.ts';

/** The identity service the dev server forwards to (DESIGN §5: PORT defaults to 3000). */
const service = `http://127.0.0.1:${process.env.KEYCARD_PORT ?? 3000}`;
const proxied = ['/api', '/oidc', '/demo', '/dev'];

/**
 * React's own DOM renderer alone weighs about 68 KB gz, nearly the whole 70 KB start-up budget
 * (BENCHMARKS.md), so the browser build renders the same React components with Preact's compat layer.
 */
export const reactCompatAliases = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: reactCompatAliases },
  plugins: [react(), licensesPlugin()],
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: service, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      onLog(level, log, handler) {
        // react-router reads React.useOptimistic through a guard and falls back when it is absent, as it
        // is in Preact's compat layer; the bundler's notice about that one lookup is expected.
        if (log.code === 'IMPORT_IS_UNDEFINED' && log.message.includes('useOptimistic')) return;
        handler(level, log);
      },
      treeshake: {
        // The contract's modules have no side effects; saying so keeps its zod schemas out of the
        // start-up bundle when only its constants and key lists are used there.
        moduleSideEffects: (id: string) => !/[\\/]contract[\\/]src[\\/]/.test(id),
      },
    },
  },
});
