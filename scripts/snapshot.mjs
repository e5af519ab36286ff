#!/usr/bin/env node
// `npm run snapshot`: captures one cluster into a `.skiff` file from built JavaScript
// (out/service/snapshot.js), building it first when any source is newer, as `serve` does.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// serve.mjs checks (and builds) the entry this names; it must be set before that module loads.
process.env.SKIFF_SERVICE_ENTRY = 'snapshot';
const { ensureServiceBuilt } = await import('./serve.mjs');
ensureServiceBuilt();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await import(pathToFileURL(join(root, 'out', 'service', 'snapshot.js')).href);
