import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { build } from 'vite';
import { ms, table } from './stats';

/**
 * `npm run bench`, log viewer part: the real viewer (buffer worker, pump, terminal view) in
 * Chromium fed a million lines, then the same lines in a plain xterm searched with
 * @xterm/addon-search, the peer figure. Each runs in its own browser, so the renderer's peak
 * memory (VmHWM of its process) is its own.
 */

const ROOT = resolve(import.meta.dirname, '..');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

async function buildPage(outDir: string): Promise<void> {
  await build({
    root: join(ROOT, 'bench/logs-viewer'),
    base: './',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
    worker: { format: 'es' },
  });
}

/** Cross-origin isolated, so performance.measureUserAgentSpecificMemory() is available. */
function serve(dir: string): Promise<Server> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    try {
      const body = await readFile(join(dir, path === '/' ? 'index.html' : path));
      res.writeHead(200, {
        'Content-Type': TYPES[extname(path)] ?? (path === '/' ? 'text/html' : 'application/octet-stream'),
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-blink-features=ForceEagerMeasureMemory'],
  });
}

/** Highest peak resident set of the browser's renderer processes, in MiB. */
async function rendererPeakMiB(browser: Browser): Promise<number | null> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    let peak = 0;
    for (const p of info.processInfo.filter((x) => x.type === 'renderer')) {
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p.id}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    }
    return peak || null;
  } catch {
    return null;
  }
}

const mib = (bytes: number | null | undefined) =>
  bytes == null ? 'n/a' : `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
const rate = (n: number) => `${Math.round(n).toLocaleString('en-US')} lines/s`;
const ratio = (peer: number, ours: number) => (ours > 0 ? `${(peer / ours).toFixed(1)}×` : 'n/a');

export async function benchLogsViewer(
  lines = Number(process.env.SKIFF_BENCH_LOG_LINES ?? 1_000_000),
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'skiff-bench-logs-'));
  await buildPage(dir);
  const server = await serve(dir);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const open = async () => {
      const browser = await launch();
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction(() => 'skiffBench' in window);
      return { browser, page };
    };
    // 1. Rate, from a source with every chunk made in advance.
    let b = await open();
    const rateRun = await b.page.evaluate((n) => window.skiffBench.runSkiffRate(n), lines);
    await b.browser.close();
    // 2. Memory and filter timings, in a fresh renderer so its peak is the viewer's own.
    b = await open();
    const skiff = await b.page.evaluate((n) => window.skiffBench.runSkiff(n), lines);
    const skiffPeak = await rendererPeakMiB(b.browser);
    await b.browser.close();
    // 3. The peer: the same lines in xterm's scrollback, searched with @xterm/addon-search.
    b = await open();
    let peer: Awaited<ReturnType<Window['skiffBench']['runPeer']>> | null = null;
    let peerError = '';
    try {
      peer = await b.page.evaluate(([n, c, r]) => window.skiffBench.runPeer(n, c, r), [
        lines,
        skiff.cols,
        skiff.rows,
      ] as const);
    } catch (err) {
      peerError = (err as Error).message.split('\n')[0] ?? 'failed';
    }
    const peerPeak = await rendererPeakMiB(b.browser);
    await b.browser.close();

    const r = skiff.results;
    console.log(
      `\nLog viewer with ${lines.toLocaleString('en-US')} lines (terminal ${skiff.cols}×${skiff.rows}; buffer ${skiff.offThread ? 'in a Web Worker' : 'in the page'})\n`,
    );
    console.log(
      table([
        {
          figure: 'ingest (stream → parsed → drawn)',
          skiff: `${rate(rateRun.linesPerSec)} (${ms(rateRun.ingestMs)})`,
          'xterm + addon-search': peer ? `${rate(peer.linesPerSec)} (${ms(peer.writeMs)})` : peerError,
          ratio: peer ? ratio(rateRun.linesPerSec, peer.linesPerSec) : '',
        },
        {
          figure: 'search "timeout": count + highlight',
          skiff: `${ms(r.literal.toScreen)} (${r.literal.matches.toLocaleString('en-US')} matches)`,
          'xterm + addon-search': peer
            ? `${ms(peer.highlighted.totalMs)} (${peer.highlighted.count ?? '?'} highlighted)`
            : '',
          ratio: peer ? ratio(peer.highlighted.totalMs, r.literal.toScreen) : '',
        },
        {
          figure: 'search, jump to first match, draw',
          skiff: ms(skiff.firstMatchMs),
          'xterm + addon-search': peer ? ms(peer.highlighted.syncMs) : '',
          ratio: peer ? ratio(peer.highlighted.syncMs, skiff.firstMatchMs) : '',
        },
        {
          figure: 'search for absent text (full scan)',
          skiff: ms(r.absent.toScreen),
          'xterm + addon-search': peer ? ms(peer.absent.totalMs) : '',
          ratio: peer ? ratio(peer.absent.totalMs, r.absent.toScreen) : '',
        },
        {
          figure: 'renderer peak RSS (VmHWM)',
          skiff: skiffPeak ? `${skiffPeak.toFixed(0)} MiB` : 'n/a',
          'xterm + addon-search': peerPeak ? `${peerPeak.toFixed(0)} MiB` : 'n/a',
          ratio: skiffPeak && peerPeak ? ratio(peerPeak, skiffPeak) : '',
        },
        {
          figure: 'JS heap, page + workers, after load',
          skiff: mib(skiff.heapAfterIngest),
          'xterm + addon-search': mib(peer?.heapAfterWrite),
          ratio:
            skiff.heapAfterIngest && peer?.heapAfterWrite
              ? ratio(peer.heapAfterWrite, skiff.heapAfterIngest)
              : '',
        },
      ]),
    );
    console.log(
      `\nSkiff filters over ${lines.toLocaleString('en-US')} lines (round trip to the worker / until the screen is drawn / worker time)\n`,
    );
    console.log(
      table(
        (
          [
            ['levels ERROR+WARN', r.levels],
            ['time range (middle half)', r.time],
            ['search "timeout"', r.literal],
            ['search regex ord-\\d{4}7\\b', r.regex],
            ['search "timeout" with 3 lines of context', r.context],
            ['search absent text', r.absent],
          ] as const
        ).map(([what, m]) => ({
          filter: what,
          'round trip': ms(m.roundTrip),
          'to screen': ms(m.toScreen),
          worker: ms(m.workerMs),
          rows: m.rows.toLocaleString('en-US'),
          matches: m.matches.toLocaleString('en-US'),
        })),
      ),
    );
    console.log(
      `\nIngest: the buffer worker spent ${ms(rateRun.workerMs)} parsing (${rate(rateRun.workerLinesPerSec)} of worker time); with the source generating on the fly (the memory run) it took ${ms(skiff.ingestMs)} on this ${cpus().length}-core machine. xterm's write rate is measured from the generating source.`,
    );
    if (peer?.highlighted.count === 1000)
      console.log('\naddon-search stops counting at its highlightLimit (1,000); Skiff counts every match.');
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchLogsViewer().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
