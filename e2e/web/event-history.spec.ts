import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page, Request } from '@playwright/test';
import { serviceArgs } from '../../scripts/serve.mjs';
import { ADMIN, expect, login, type Service, test } from './fixtures';

/**
 * The events view's history: the timeline chart and its range, grouping by object and reason,
 * and expired events. Against the demo cluster of `skiff serve --demo`.
 */

const isList = (req: Request) => new URL(req.url()).pathname.endsWith('/kubernetes-events');
const isTimeline = (req: Request) => new URL(req.url()).pathname.endsWith('/kubernetes-events/timeline');
const paramsOf = (req: Request) => new URL(req.url()).searchParams;

async function openEvents(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Events' }).click();
  await expect(page.getByRole('table', { name: 'Cluster events' })).toBeVisible();
}

test.describe('event history', () => {
  test('the timeline shows bars; dragging narrows the range and the table follows', async ({ page }) => {
    await login(page);
    const firstTimeline = page.waitForResponse((r) => isTimeline(r.request()) && r.ok());
    await openEvents(page);
    const whole = (await (await firstTimeline).json()) as { from: string; until: string };
    const chart = page.getByTestId('event-timeline');
    await expect(chart).toBeVisible();
    // The chart reports how many bars it laid out with some height.
    await expect(chart.locator('.uplot')).toHaveAttribute('data-bars', /^[1-9]\d*$/);
    await expect(page.getByTestId('event-range')).toHaveText('Range: All events');

    const listWithRange = page.waitForRequest((r) => isList(r) && paramsOf(r).has('until'));
    const timelineWithRange = page.waitForRequest((r) => isTimeline(r) && paramsOf(r).has('until'));
    const over = chart.locator('.u-over');
    const box = await over.boundingBox();
    if (!box) throw new Error('the chart has no plotting area');
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();

    const list = paramsOf(await listWithRange);
    const since = Date.parse(list.get('since') ?? '');
    const until = Date.parse(list.get('until') ?? '');
    expect(since).toBeLessThan(until);
    // Inside what the chart showed, and narrower than it (the drag covered ~40% of the width).
    const [from0, until0] = [Date.parse(whole.from), Date.parse(whole.until)];
    expect(since).toBeGreaterThanOrEqual(from0 - 1000);
    expect(until).toBeLessThanOrEqual(until0 + 1000);
    expect(until - since).toBeLessThan((until0 - from0) * 0.6);
    // The chart asks for the same range as the table.
    const tl = paramsOf(await timelineWithRange);
    expect([tl.get('since'), tl.get('until')]).toEqual([list.get('since'), list.get('until')]);
    await expect(page.getByTestId('event-range')).toHaveText(/^Range: .+ – .+$/);
    await expect(page.getByLabel('From')).not.toHaveValue('');
    await expect(page.getByLabel('Until')).not.toHaveValue('');

    // Reset: the table asks for everything again.
    const listReset = page.waitForRequest((r) => isList(r) && !paramsOf(r).has('since'));
    await page.getByRole('button', { name: 'Reset range' }).click();
    await listReset;
    await expect(page.getByTestId('event-range')).toHaveText('Range: All events');
    await expect(page.getByLabel('From')).toHaveValue('');
  });

  test('the range can be set from the keyboard: presets and typed times', async ({ page }) => {
    await login(page);
    await openEvents(page);
    const preset = page.waitForRequest((r) => isList(r) && paramsOf(r).get('since') === '1h');
    await page.getByRole('button', { name: '1h', exact: true }).click();
    await preset;
    await expect(page.getByRole('button', { name: '1h', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByTestId('event-range')).toHaveText('Range: Events of the last hour');

    const from = await page.evaluate(() => new Date(Date.UTC(2026, 0, 31, 10, 0, 0)).toISOString());
    const typed = page.waitForRequest(
      (r) => isList(r) && paramsOf(r).get('since') === from && paramsOf(r).has('until'),
    );
    // Local times in the browser's zone: what a person types into the inputs.
    const local = (iso: string) =>
      page.evaluate((v) => {
        const d = new Date(v);
        const two = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
      }, iso);
    await page.getByLabel('From').fill(await local(from));
    await page.getByLabel('Until').fill(await local('2026-01-31T11:30:00.000Z'));
    await page.getByRole('button', { name: 'Apply range' }).press('Enter');
    expect(paramsOf(await typed).get('until')).toBe('2026-01-31T11:30:00.000Z');
    await expect(page.getByRole('button', { name: '1h', exact: true })).toHaveAttribute(
      'aria-pressed',
      'false',
    );

    // A reversed range is refused with a reason, and the range in force stays.
    await page.getByLabel('From').fill(await local('2026-01-31T12:00:00.000Z'));
    await page.getByRole('button', { name: 'Apply range' }).click();
    await expect(page.getByRole('alert')).toHaveText('“From” must be before “Until”');
  });

  test('groups events by object and reason with the summed count', async ({ page }) => {
    await login(page);
    await openEvents(page);
    const groupsRequest = page.waitForRequest((r) =>
      new URL(r.url()).pathname.endsWith('/kubernetes-events/groups'),
    );
    const grouping = page.getByRole('switch', { name: 'Group by object and reason' });
    await grouping.click();
    await expect(grouping).toHaveAttribute('aria-checked', 'true');
    await groupsRequest;
    const table = page.getByRole('table', { name: 'Event groups' });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expect(page.locator('.list-count')).toHaveText(/^\d+ of \d+ groups$/);

    await page.getByLabel('Reason').fill('BackOff');
    await expect(async () => {
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')),
        );
      expect(rows.length).toBeGreaterThan(0);
      const keys = new Set<string>();
      for (const [object, reason, type, count, events] of rows) {
        expect(reason).toBe('BackOff');
        // One row per object, reason and type: the list's repeats are summed, not listed.
        const key = `${object}|${reason}|${type}`;
        expect(keys.has(key), `${key} appears twice`).toBe(false);
        keys.add(key);
        expect(Number(events)).toBeGreaterThanOrEqual(1);
        expect(Number(count)).toBeGreaterThanOrEqual(Number(events));
      }
    }).toPass();

    await grouping.click();
    await expect(page.getByRole('table', { name: 'Cluster events' })).toBeVisible();
    await expect(page.locator('.list-count')).toHaveText(/^\d+ of \d+ events$/);
  });

  test('"Show expired" marks the rows the service reports as expired', async ({ page }) => {
    // The service's answer is fixed here so the marking is exact: rows 0 and 2 of the page expired.
    const make = (i: number) => ({
      workspaceId: 'default',
      clusterId: 'demo',
      resourceId: `uid-${i}`,
      eventId: `ev-${i}`,
      firstTimestamp: new Date(Date.now() - i * 60_000).toISOString(),
      lastTimestamp: new Date(Date.now() - i * 60_000).toISOString(),
      count: 1,
      message: `event number ${i}`,
      reason: `Reason${i}`,
      type: 'NORMAL',
      involvedObject: { kind: 'Pod', name: `pod-${i}`, uid: `uid-${i}`, namespace: 'default' },
      source: { component: 'kubelet', host: 'worker-1' },
    });
    const recorded = [make(1), make(2), make(3)];
    await page.route('**/kubernetes-events?*', async (route) => {
      // No live watch here: the view falls back to the list, answered below.
      if (new URL(route.request().url()).searchParams.get('watch') === 'true') return route.abort();
      const expired = new URL(route.request().url()).searchParams.get('includeExpired') === 'true';
      const rows = expired ? recorded : [recorded[1]];
      await route.fulfill({
        json: rows,
        headers: {
          'x-total': String(rows.length),
          'x-limit': '100',
          'x-offset': '0',
          ...(expired ? { 'x-expired-rows': '0,2' } : {}),
        },
      });
    });
    await login(page);
    await openEvents(page);
    const table = page.getByRole('table', { name: 'Cluster events' });
    await expect(table.locator('tbody tr.event-row')).toHaveCount(1);
    await expect(table.getByText('expired', { exact: true })).toHaveCount(0);

    await page.getByRole('switch', { name: 'Show expired' }).check();
    const rows = table.locator('tbody tr.event-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toHaveClass(/row-expired/);
    await expect(rows.nth(0).locator('.badge', { hasText: /^expired$/ })).toBeVisible();
    await expect(rows.nth(1)).not.toHaveClass(/row-expired/);
    await expect(rows.nth(1).locator('.badge', { hasText: /^expired$/ })).toHaveCount(0);
    await expect(rows.nth(2)).toHaveClass(/row-expired/);
    await expect(rows.nth(2)).toContainText('Reason3');
  });
});

/**
 * A service of its own whose demo cluster deletes events 15 s after they were last seen (the
 * apiserver's --event-ttl, shortened) and that records every event from the start.
 */
const withShortTtl = test.extend<{ service: Service }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as the first argument
  service: async ({}, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skiff-e2e-ttl-'));
    const args = [
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--demo',
      '--demo-event-ttl',
      '15s',
      '--record-events',
      'all',
    ];
    const child: ChildProcess = spawn(process.execPath, serviceArgs(args), {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, SKIFF_ADMIN_PASSWORD: ADMIN.password },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`serve did not start in 30s:\n${output}`)), 30_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const m = /listening on (http:\/\/\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          ok(m[1]!);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => fail(new Error(`serve exited with ${code}:\n${output}`)));
    });
    await use({ url, dataDir });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  },
});

withShortTtl('expired events stay listed, marked, after the cluster dropped them', async ({ page }) => {
  withShortTtl.setTimeout(120_000);
  await login(page);
  await openEvents(page);
  const table = page.getByRole('table', { name: 'Cluster events' });
  await page.getByRole('switch', { name: 'Show expired' }).check();
  // The demo's first events are seconds old; once 15 s pass without a repeat the cluster drops
  // them and only Skiff's record still has them.
  const expired = table.locator('tbody tr.event-row.row-expired');
  await expect(expired.first()).toBeVisible({ timeout: 60_000 });
  await expect(expired.first().locator('.badge', { hasText: /^expired$/ })).toBeVisible();
  await expect(page.getByTestId('event-timeline').locator('.uplot')).toHaveAttribute(
    'data-bars',
    /^[1-9]\d*$/,
  );
  const gone = await expired
    .locator('button.event-toggle')
    .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-controls')));

  // Without the toggle the list is the cluster's own: none marked, and the expired ones are not in it.
  await page.getByRole('switch', { name: 'Show expired' }).uncheck();
  await expect(table.locator('tbody tr.event-row.row-expired')).toHaveCount(0);
  await expect(async () => {
    const live = await table
      .locator('button.event-toggle')
      .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-controls')));
    for (const id of gone) expect(live).not.toContain(id);
  }).toPass();
});
