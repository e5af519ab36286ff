import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { expect, expectAccessible, login, logScreenRows, openLogs, screenshot, test } from './fixtures';

const nonEmpty = async (page: Page) => (await logScreenRows(page)).map((r) => r.trimEnd()).filter(Boolean);

/** Turns follow off and waits for the whole log to be in. */
async function loadOnce(page: Page): Promise<number> {
  await page.getByTestId('log-follow').uncheck();
  await expect(page.getByTestId('log-stream-status')).toHaveText('Complete');
  await expect.poll(() => lineCount(page)).toBeGreaterThan(0);
  await settle(page);
  return lineCount(page);
}

/** Waits until the line count holds still for a second. */
async function settle(page: Page): Promise<void> {
  let last = -1;
  await expect
    .poll(
      async () => {
        const n = await lineCount(page);
        const same = n === last;
        last = n;
        return same;
      },
      { intervals: [1_000] },
    )
    .toBe(true);
}

async function lineCount(page: Page): Promise<number> {
  const text = (await page.getByTestId('log-status').textContent()) ?? '';
  return Number(/([\d,]+) lines/.exec(text)?.[1]?.replace(/,/g, '') ?? 0);
}

async function shownCount(page: Page): Promise<number> {
  const text = (await page.getByTestId('log-status').textContent()) ?? '';
  const m = /([\d,]+) shown/.exec(text);
  return m ? Number(m[1]!.replace(/,/g, '')) : lineCount(page);
}

test.describe('logs', () => {
  test('merges the logs of every pod of a deployment, each line tagged with its pod', async ({ page }) => {
    await login(
      page,
      '#ws=default&cl=demo&area=resources&kind=deployment&ns=shop&sel=deployment/shop/frontend&tab=logs',
    );
    await expect(page.getByTestId('log-viewer')).toBeVisible();
    await loadOnce(page);
    const tags = new Set(
      (await nonEmpty(page)).map((row) => /\[(frontend-[a-z0-9-]+)/.exec(row)?.[1]).filter(Boolean),
    );
    // Three replicas: lines from more than one pod share the screen, in time order.
    expect(tags.size).toBeGreaterThan(1);
  });

  test('tails a live pod: new lines appear at the bottom', async ({ page }) => {
    await openLogs(page, DEMO_PODS.checkout);
    await expect(page.getByTestId('log-stream-status')).toHaveText('Live');
    await expect.poll(() => lineCount(page)).toBeGreaterThan(10);
    // Let the history finish arriving, so that what changes next is a new line.
    await settle(page);
    const before = await lineCount(page);
    const lastBefore = (await nonEmpty(page)).at(-1);
    // The demo cluster writes a checkout line every few seconds; it shows up at the bottom.
    await expect.poll(async () => (await nonEmpty(page)).at(-1), { timeout: 45_000 }).not.toBe(lastBefore);
    expect(await lineCount(page)).toBeGreaterThan(before);
    await screenshot(page, 'logs-live');
    await expectAccessible(page, 'logs');

    await page.getByTestId('log-pause').click();
    await expect(page.getByTestId('log-pause')).toHaveText(/^Resume/);
    await page.getByTestId('log-pause').click();
    await expect(page.getByTestId('log-pause')).toHaveText('Pause');
  });

  test('switches to the previous run, and guidance opens it there', async ({ page }) => {
    const pod = DEMO_PODS.crashLoop;
    await openLogs(page, pod);
    // Following a container in back-off: its last run, then a marker saying how it ended.
    await expect
      .poll(async () => (await nonEmpty(page)).join('\n'))
      .toMatch(/─── container app terminated: exit code 1/);
    await page.getByTestId('log-previous').check();
    await expect(page.getByTestId('log-stream-status')).toHaveText('Complete');
    await expect(page.getByTestId('log-follow')).toBeDisabled();
    await expect.poll(async () => (await nonEmpty(page)).join('\n')).toContain('panic: database unavailable');
    expect((await nonEmpty(page)).join('\n')).not.toContain('───');

    await page.getByTestId('detail-pane').getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Logs of the previous container' }).first().click();
    await expect(page.getByTestId('log-viewer')).toBeVisible();
    await expect(page.getByTestId('log-previous')).toBeChecked();
    await expect.poll(async () => (await nonEmpty(page)).join('\n')).toContain('panic: database unavailable');
  });

  test('searches and steps through highlighted matches', async ({ page }) => {
    await openLogs(page, DEMO_PODS.checkout);
    await loadOnce(page);
    // One line per screen row, as the steps below read them (JSON lines wrap by default).
    await page.getByTestId('log-wrap').uncheck();
    await page.getByTestId('log-search').fill('order placed');
    const count = page.getByTestId('log-match-count');
    await expect(count).toHaveText(/^0 \/ [1-9]\d*$/);
    const total = Number(((await count.textContent()) ?? '').split(' / ')[1]);
    // Like less, the first step goes from where the screen is: here the tail.
    await page.getByTestId('log-terminal').click();
    await page.keyboard.press('Home');
    await page.getByTestId('log-next').click();
    await expect(count).toHaveText(`1 / ${total}`);
    await page.getByTestId('log-next').click();
    await expect(count).toHaveText(`2 / ${total}`);
    await page.getByTestId('log-prev').click();
    await expect(count).toHaveText(`1 / ${total}`);
    // Matches are painted: yellow (palette 3) for all, the current one in orange (208).
    const terminal = page.getByTestId('log-terminal');
    await expect(terminal.locator('.xterm-bg-3').first()).toBeVisible();
    await expect(terminal.locator('.xterm-bg-208').first()).toHaveText('order placed');
    await screenshot(page, 'logs-search');
    // Stepping back from the first match wraps around to the last.
    await page.getByTestId('log-search').press('Shift+Enter');
    await expect(count).toHaveText(`${total} / ${total}`);

    await page.getByTestId('log-regex').click();
    await page.getByTestId('log-search').fill('ord-\\d+');
    await expect(count).toHaveText(new RegExp(`^0 / ${total}$`));
    await page.getByTestId('log-search').fill('ord-(');
    await expect(page.getByRole('alert')).toContainText('Invalid regular expression: Unterminated group');
    // The rest of the view stays as it was: an unfinished pattern does not blank the screen.
    await expect.poll(async () => (await nonEmpty(page)).length).toBeGreaterThan(5);
  });

  test('filters by level and by time, with context lines', async ({ page }) => {
    await openLogs(page, DEMO_PODS.checkout);
    const total = await loadOnce(page);
    // One line per screen row, as the steps below read them (JSON lines wrap by default).
    await page.getByTestId('log-wrap').uncheck();
    for (const level of ['WARN', 'INFO', 'DEBUG', 'TRACE', 'UNKNOWN'])
      await page.getByTestId(`log-level-${level}`).uncheck();
    await expect.poll(() => shownCount(page)).toBeLessThan(total);
    const errors = await nonEmpty(page);
    expect(errors.length).toBeGreaterThan(0);
    for (const row of errors) expect(row).toContain('"level":"error"');
    for (const level of ['WARN', 'INFO', 'DEBUG', 'TRACE', 'UNKNOWN'])
      await page.getByTestId(`log-level-${level}`).check();

    await page.getByTestId('log-timestamps').check();
    await page.getByTestId('log-pause').click();
    await page.getByTestId('log-terminal').click();
    await page.keyboard.press('Home');
    const stamp = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\.\d{3} /;
    await expect.poll(async () => (await nonEmpty(page))[0]).toMatch(stamp);
    const fifth = (await nonEmpty(page))[5]!;
    const [, day, time] = stamp.exec(fifth)!;
    await page.getByTestId('log-from').fill(`${day}T${time}`);
    await expect.poll(() => shownCount(page)).toBeLessThan(total);
    // The count drops before the terminal has redrawn its first row, so the row is polled too.
    await expect
      .poll(async () => (stamp.exec((await nonEmpty(page))[0] ?? '')?.[0].trim() ?? '') >= `${day} ${time}`)
      .toBe(true);
    await page.getByRole('button', { name: 'Any time' }).click();
    await page.getByTestId('log-timestamps').uncheck();

    // grep -C 2: errors with two lines either side; groups that do not touch are split by --.
    await page.getByTestId('log-search').fill('"level":"error"');
    await page.getByTestId('log-context').fill('2');
    await page.keyboard.press('Home');
    await expect.poll(async () => (await nonEmpty(page)).some((r) => r === '--')).toBe(true);
    const rows = await nonEmpty(page);
    expect(rows.some((r) => r.includes('"level":"info"'))).toBe(true);
    await screenshot(page, 'logs-context');
  });

  test('downloads the filtered view or everything', async ({ page }) => {
    await openLogs(page, DEMO_PODS.checkout);
    const total = await loadOnce(page);
    await page.getByTestId('log-search').fill('slow downstream');
    await expect(page.getByTestId('log-match-count')).toHaveText(/ \/ [1-9]/);
    const shown = await shownCount(page);

    const [view] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('log-download-view').click(),
    ]);
    expect(view.suggestedFilename()).toBe(`${DEMO_PODS.checkout.name}-checkout-filtered.log`);
    const viewLines = readFileSync((await view.path())!, 'utf8')
      .trimEnd()
      .split('\n');
    expect(viewLines).toHaveLength(shown);
    for (const l of viewLines) expect(l).toContain('slow downstream');

    const [all] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('log-download-all').click(),
    ]);
    const allLines = readFileSync((await all.path())!, 'utf8')
      .trimEnd()
      .split('\n');
    expect(allLines).toHaveLength(total);
    expect(allLines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /);
  });
});
