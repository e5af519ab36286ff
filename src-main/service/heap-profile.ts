import { setFlagsFromString } from 'node:v8';

/**
 * Imported for its effect, first thing in a process that hosts the service (`serve`, the desktop
 * main process): V8 grows the old generation by 30% past the live data instead of its default,
 * which can double it. The service is a cache: most of its heap is long-lived entries and its
 * garbage comes in bursts (a list or relist of 100,000 objects), during which V8's defaults let
 * the heap grow far past what it holds.
 *
 * The young generation's size is the other half, and V8 reads it only when the process starts:
 * `scripts/serve.mjs` starts the service with `--max-semi-space-size=4` (SERVICE_NODE_FLAGS).
 * Measured with 10,000 pods and 100,000 events cached: peak RSS 431 MB with V8's defaults, 328 MB
 * with the small young generation, 291 MB with both. `--optimize-for-size` gave 271 MB but made
 * every request cost 3-4 times the CPU (its memory reducer collects every 200 ms), so not that.
 */
// V8 has no way to read a flag back, so no test can see this string change; `npm run bench`
// measures its effect (peak RSS) instead.
// Stryker disable next-line all: checked by the memory bench, not a test
setFlagsFromString('--heap-growing-percent=30');
