import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { startServiceProcess } from './service-process';
import { median, ms, table, type Verdict } from './stats';

/**
 * Issue 24's /v1/docs figure: the API reference page loaded in Chromium with an empty cache, from
 * navigation to the load event and until its operations are on screen, and the bytes it moved.
 * The baseline, in the same run on the same machine: the Swagger UI page it replaced, built from
 * `swagger-ui-dist` and the same OpenAPI document, served from loopback by a bare server (so the
 * ratio compares the renderers, not two services). Target: the page loads in ≤ 1 s.
 */

const ROUNDS = 5;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

interface Load {
  loadMs: number;
  shownMs: number;
  bytes: number;
}

/** The former page: Swagger UI over the same document, from its own loopback server. */
async function startSwaggerBaseline(documentBytes: Buffer) {
  const uiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Swagger UI</title>
<link rel="stylesheet" href="/swagger-ui.css"></head><body><div id="api-reference"></div>
<script src="/swagger-ui-bundle.js"></script><script src="/init.js"></script></body></html>`;
  const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api-reference', validatorUrl: null });`;
  const files: Record<string, [string, () => Promise<Buffer | string>]> = {
    '/': ['text/html', async () => page],
    '/init.js': ['text/javascript', async () => init],
    '/openapi.json': ['application/json', async () => documentBytes],
    '/swagger-ui.css': ['text/css', () => readFile(join(uiDir, 'swagger-ui.css'))],
    '/swagger-ui-bundle.js': ['text/javascript', () => readFile(join(uiDir, 'swagger-ui-bundle.js'))],
  };
  const server = createServer(async (req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return void res.writeHead(404).end();
    const body = await file[1]();
    res.writeHead(200, { 'Content-Type': file[0], 'Content-Length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * One visit in a fresh context (an empty cache, as a first visit has). Times are the page's own,
 * from navigation start: its load event, and the first frame in which `shown` is in the document.
 */
async function loadOnce(browser: Browser, url: string, shown: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    // tsx compiles with keepNames, which wraps functions passed to the page in __name().
    await page.addInitScript('window.__name = (f) => f');
    await page.addInitScript((selector) => {
      const w = window as unknown as { shownAt?: number };
      const look = () => {
        if (document.querySelector(selector)) w.shownAt = performance.now();
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    }, shown);
    let bytes = 0;
    page.on('requestfinished', (r) => {
      void r
        .sizes()
        .then((s) => {
          bytes += s.responseBodySize + s.responseHeadersSize;
        })
        .catch(() => {});
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(
      () => (window as unknown as { shownAt?: number }).shownAt !== undefined,
      null,
      {
        timeout: 60_000,
      },
    );
    const { loadMs, shownMs } = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { loadMs: nav.loadEventEnd, shownMs: (window as unknown as { shownAt: number }).shownAt };
    });
    return { loadMs, shownMs, bytes };
  } finally {
    await context.close();
  }
}

export async function benchApiDocs(
  dir: string,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
) {
  const svc = await startServiceProcess(['--port', '0', '--data-dir', join(dir, 'docs-data')], {
    SKIFF_ADMIN_PASSWORD: 'bench-docs-password',
  });
  let browser: Browser | undefined;
  let baseline: Awaited<ReturnType<typeof startSwaggerBaseline>> | undefined;
  try {
    const documentBytes = Buffer.from(await (await fetch(`${svc.url}/v1/openapi.json`)).arrayBuffer());
    baseline = await startSwaggerBaseline(documentBytes);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const page: Load[] = [];
    const swagger: Load[] = [];
    // Interleaved, so a busy spell on the shared machine lands on both.
    for (let i = 0; i < ROUNDS; i++) {
      page.push(await loadOnce(browser, `${svc.url}/v1/docs`, 'section.op'));
      swagger.push(await loadOnce(browser, baseline.url, '.opblock'));
    }
    const med = (xs: Load[], k: keyof Load) => median(xs.map((x) => x[k]));
    const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
    console.log(
      `\n/v1/docs in Chromium, empty cache (median of ${ROUNDS}; baseline: the former Swagger UI page, same document, same minutes)\n`,
    );
    const row = (name: string, xs: Load[]) => ({
      page: name,
      'load event': ms(med(xs, 'loadMs')),
      'operations shown': ms(med(xs, 'shownMs')),
      'bytes moved': kib(med(xs, 'bytes')),
    });
    console.log(table([row('/v1/docs (static HTML)', page), row('Swagger UI (before)', swagger)]));
    const shown = med(page, 'shownMs');
    const ratio = shown / med(swagger, 'shownMs');
    verdicts.push({
      figure: '/v1/docs operations shown, empty cache (÷ Swagger UI, same run)',
      measured: `${ms(shown)} (${ratio.toFixed(2)} of ${ms(med(swagger, 'shownMs'))})`,
      target: '≤ 1 s',
      pass: judge(shown <= 1_000),
    });
  } finally {
    await browser?.close();
    await baseline?.close();
    await svc.stop();
  }
}
