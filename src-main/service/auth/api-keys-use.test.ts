import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ClientInfo } from '../context';
import { silentLogger } from '../logger';
import { API_KEY_USE_INTERVAL_MS, ApiKeyUseLog } from './api-key-use';
import { ApiKeys } from './api-keys';
import { PendingWork } from './pending-work';
import { noReplicas } from './replica-sync';
import { CLIENT, MINUTE, openStore } from './session-store.test-support';

/**
 * The activity entries API key use leaves (api-key-use.ts), over a real activity log in an
 * in-memory database on a fake clock. Each test builds its own log and keys (see
 * docs/mutation-testing.md).
 */

type Client = Pick<ClientInfo, 'address' | 'userAgent'>;

async function openUseLog(describeClient?: (client: Client) => Promise<typeof CLIENT>) {
  const f = await openStore(['alice', 'bob']);
  const { backend } = f;
  const keys = await ApiKeys.load(backend, f.clock.now, noReplicas(backend, silentLogger()));
  const pending = new PendingWork();
  const warnings: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
  const log = new ApiKeyUseLog({
    activity: f.activity,
    pending,
    logger,
    now: f.clock.now,
    // The address as the location label, so each entry shows where the key was used from.
    describe:
      describeClient ??
      (async (client) => ({ ...CLIENT, location: { ...CLIENT.location, label: client.address ?? '-' } })),
  });
  return {
    ...f,
    keys,
    log,
    warnings,
    /** Every api_key_used entry written so far, oldest first, once pending writes are done. */
    async entries() {
      await pending.drain();
      return (await f.activity.page({ types: ['api_key_used'] }, 100_000, 0)).items
        .reverse()
        .map((e) => ({ apiKeyId: e.apiKeyId, from: e.client?.location.label, at: e.at, detail: e.detail }));
    },
    async count() {
      await pending.drain();
      return (await f.activity.page({ types: ['api_key_used'] }, 1, 0)).total;
    },
  };
}

const from = (address?: string): Client => (address === undefined ? {} : { address });

describe('the activity entries of API key use', () => {
  it('are written once per ten minutes for one key from one address', async () => {
    const f = await openUseLog();
    const { record } = await f.keys.create('alice', { name: 'poller' });
    const t0 = f.clock.now();
    f.log.used(record, from('10.0.0.7'));
    f.clock.advance(API_KEY_USE_INTERVAL_MS - 1);
    f.log.used(record, from('10.0.0.7'));
    expect(await f.count()).toBe(1);
    f.clock.advance(1);
    f.log.used(record, from('10.0.0.7'));
    f.clock.advance(MINUTE);
    f.log.used(record, from('10.0.0.7'));
    expect(await f.entries()).toEqual([
      { apiKeyId: record.apiKeyId, from: '10.0.0.7', at: new Date(t0).toISOString(), detail: 'poller' },
      {
        apiKeyId: record.apiKeyId,
        from: '10.0.0.7',
        at: new Date(t0 + API_KEY_USE_INTERVAL_MS).toISOString(),
        detail: 'poller',
      },
    ]);
  });

  it('are written at once for another address or another key', async () => {
    const f = await openUseLog();
    const a = (await f.keys.create('alice', { name: 'a' })).record;
    const b = (await f.keys.create('bob', { name: 'b' })).record;
    const uses: Array<[typeof a, Client]> = [
      [a, from('10.0.0.1')],
      [a, from('10.0.0.2')],
      [b, from('10.0.0.1')],
      [a, from()],
      [b, from()],
    ];
    for (const [key, client] of uses) f.log.used(key, client);
    for (const [key, client] of uses) f.log.used(key, client);
    const seen = (await f.entries()).map((e) => `${e.apiKeyId === a.apiKeyId ? 'a' : 'b'} ${e.from}`);
    expect(seen.sort()).toEqual(['a -', 'a 10.0.0.1', 'a 10.0.0.2', 'b -', 'b 10.0.0.1']);
  });

  it('beyond 10 000 key-address pairs forget the pair least recently logged, so it is logged again', async () => {
    const f = await openUseLog();
    const { record } = await f.keys.create('alice', { name: 'fleet' });
    f.log.used(record, from('first'));
    f.clock.advance(MINUTE);
    for (let i = 1; i < 10_000; i++) f.log.used(record, from(`host-${i}`));
    // 10 000 pairs: all still remembered.
    f.log.used(record, from('first'));
    expect(await f.count()).toBe(10_000);
    // Ten minutes after its first entry, "first" is logged again and becomes the most recent.
    f.clock.advance(API_KEY_USE_INTERVAL_MS - MINUTE);
    f.log.used(record, from('first'));
    expect(await f.count()).toBe(10_001);
    // One pair more: host-1, now the least recently logged, is forgotten, and "first" is not.
    f.log.used(record, from('overflow'));
    f.log.used(record, from('first'));
    f.log.used(record, from('host-1'));
    const last = (await f.entries()).slice(10_001).map((e) => e.from);
    expect(last).toEqual(['overflow', 'host-1']);
  });

  it('that cannot be written are a warning in the log, with the error', async () => {
    const failure = new Error('geo lookup failed');
    const f = await openUseLog(async () => {
      throw failure;
    });
    const { record } = await f.keys.create('alice', { name: 'unlucky' });
    f.log.used(record, from('10.0.0.9'));
    expect(await f.count()).toBe(0);
    expect(f.warnings).toHaveLength(1);
    expect(f.warnings[0]).toMatchObject({ level: 40, err: { message: 'geo lookup failed' } });
  });
});
