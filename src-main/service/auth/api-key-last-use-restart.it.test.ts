import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../../src-shared/contract/auth-models';
import { FakeClock, startAuthStack } from './stack.test-support';

/**
 * An API key's last use is written in batches (api-keys.ts); closing the service writes the batch
 * still pending (auth/index.ts), so a restart shows the use a script made just before it.
 */
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-keys-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe("an API key's last use", () => {
  it('made just before the service closed, still waiting for its batch, is there after a restart', async () => {
    const clock = new FakeClock();
    const first = await startAuthStack({ dataDir, clock });
    const admin = await first.login();
    const created = await first.call<{ key: string; apiKey: ApiKeyRecord }>('POST', '/v1/auth/api-keys', {
      headers: admin.bearer,
      body: { name: 'nightly report' },
    });
    expect(created.status).toBe(201);
    const use = async () =>
      expect(
        (await first.call('GET', '/v1/workspaces', { headers: { 'x-api-key': created.body.key } })).status,
      ).toBe(200);
    // The first use is written at once; one a few seconds later waits for the next batch.
    clock.advance(5_000);
    await use();
    clock.advance(5_000);
    await use();
    const usedAt = new Date(clock.t).toISOString();
    await first.stop();

    const second = await startAuthStack({ dataDir, clock });
    try {
      const again = await second.login();
      const keys = await second.call<ApiKeyRecord[]>('GET', '/v1/auth/api-keys', { headers: again.bearer });
      expect(keys.body.map((k) => [k.name, k.lastUsedAt])).toEqual([['nightly report', usedAt]]);
    } finally {
      await second.stop();
    }
  });
});
