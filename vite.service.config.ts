import { resolve } from 'node:path';
import { defineConfig, type Plugin, runnerImport } from 'vite';

/**
 * Writes the OpenAPI document into the build (out/service/openapi.json): generated from the
 * contract at build time, so the running service serves a file and carries no generator.
 */
function openApiDocument(): Plugin {
  return {
    name: 'skiff-openapi-document',
    apply: 'build',
    async generateBundle() {
      const { module } = await runnerImport<typeof import('./src-main/service/openapi/document')>(
        resolve(import.meta.dirname, 'src-main/service/openapi/document.ts'),
      );
      const source = `${JSON.stringify(module.buildOpenApiDocument(), null, 2)}\n`;
      this.emitFile({ type: 'asset', fileName: 'openapi.json', source });
    },
  };
}

/**
 * The headless service and the simulator's CLI as plain ES modules for Node 24, so `serve`,
 * `start` and the bench run built JavaScript: no TypeScript compiler in the process, one process
 * per service. Dependencies stay external (an SSR build), loaded from node_modules as usual.
 */
export default defineConfig({
  plugins: [openApiDocument()],
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
        snapshot: resolve(import.meta.dirname, 'src-main/cli/snapshot.ts'),
        simulator: resolve(import.meta.dirname, 'packages/kube-simulator/src/cli.ts'),
      },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
