// Preloaded into a measured service by the bench only (`node --expose-gc --import
// <this file> scripts/serve.mjs`): on SIGUSR2 it runs a full GC and prints process.memoryUsage()
// as one stdout line. This reads the heap without an endpoint in the product and without the
// inspector; until the signal comes it costs nothing. V8's own idle GC never runs in the service
// (its timers keep it from looking idle), so a settled figure needs a forced collection.
import { setTimeout as sleep } from 'node:timers/promises';

process.on('SIGUSR2', async () => {
  // 'last-resort' is V8's memory-reducing collection (all available garbage, heap shrunk), the
  // one it runs on memory pressure; a plain gc() frees objects but keeps the heap's pages.
  globalThis.gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  // Let the freed pages go back to the OS before the bench reads VmRSS.
  await sleep(500);
  process.stdout.write(`skiff-bench-gc ${JSON.stringify(process.memoryUsage())}\n`);
});
