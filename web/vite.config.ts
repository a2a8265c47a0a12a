import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { licensesPlugin } from './build/licenses-plugin.ts';

/** The identity service the dev server forwards to (DESIGN §5: PORT defaults to 3000). */
const service = `http://127.0.0.1:${process.env.KEYCARD_PORT ?? 3000}`;
const proxied = ['/api', '/oidc', '/demo', '/dev'];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), licensesPlugin()],
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: service, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // The contract's modules have no side effects; saying so keeps its zod schemas out of the
        // start-up bundle when only its constants and key lists are used there.
        moduleSideEffects: (id: string) => !/[\\/]contract[\\/]src[\\/]/.test(id),
      },
    },
  },
});
