import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The headless service and the simulator's CLI as plain ES modules for Node 24, so `serve`,
 * `start` and the bench run built JavaScript: no TypeScript compiler in the process, one process
 * per service. Dependencies stay external (an SSR build), loaded from node_modules as usual.
 */
export default defineConfig({
  build: {
    ssr: true,
    target: 'node24',
    outDir: 'out/service',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: {
        serve: resolve(import.meta.dirname, 'src-main/cli/serve.ts'),
        simulator: resolve(import.meta.dirname, 'src-main/simulator/cli.ts'),
      },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
