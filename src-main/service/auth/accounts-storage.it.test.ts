import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import { silentLogger } from '../logger';
import { Accounts } from './accounts';
import { memoryBackend } from './backends.test-support';
import { noReplicas } from './replica-sync';
import { FAST_HASH, FakeClock, queryDataDir, startAuthStack } from './stack.test-support';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiff-accounts-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const hashes = () =>
  new Map(
    queryDataDir<{ username: string; password_hash: string }>(
      dataDir,
      'SELECT username, password_hash FROM accounts',
    ).map((r) => [r.username, r.password_hash]),
  );

describe('accounts on disk', () => {
  it('keep every change and every removal across a restart', async () => {
    const clock = new FakeClock();
    const before = await startAuthStack({ dataDir, clock });
    const admin = await before.login();
    const call = (method: string, path: string, body?: unknown) =>
      before.call<Account>(method, path, { headers: admin.bearer, ...(body ? { body } : {}) });
    // Apart in time: accounts created in the same millisecond have no defined order.
    clock.advance(1_000);
    const uma = (await call('POST', '/v1/auth/accounts', { username: 'uma', password: 'uma-password' })).body;
    clock.advance(1_000);
    const vic = (await call('POST', '/v1/auth/accounts', { username: 'vic', password: 'vic-password' })).body;
    expect(
      (await call('PATCH', `/v1/auth/accounts/${uma.accountId}`, { workspaces: ['default'] })).status,
    ).toBe(200);
    await call('PATCH', `/v1/auth/accounts/${uma.accountId}`, { password: 'uma-second-password' });
    expect((await call('DELETE', `/v1/auth/accounts/${vic.accountId}`)).status).toBe(200);
    await before.stop();

    const after = await startAuthStack({ dataDir, clock });
    try {
      const again = await after.login();
      const accounts = await after.call<Account[]>('GET', '/v1/auth/accounts', { headers: again.bearer });
      expect(accounts.body.map((a) => [a.username, a.workspaces])).toEqual([
        ['admin', 'all'],
        ['uma', ['default']],
      ]);
      await after.login('uma', 'uma-second-password');
      const old = await after.call('POST', '/v1/auth/login', {
        body: { username: 'uma', password: 'uma-password' },
      });
      expect(old.status).toBe(401);
      const gone = await after.call('POST', '/v1/auth/login', {
        body: { username: 'vic', password: 'vic-password' },
      });
      expect(gone.status).toBe(401);
    } finally {
      await after.stop();
    }
  });

  it('a password hashed at a lower cost is re-hashed at the configured cost on the next good login, and only then', async () => {
    const clock = new FakeClock();
    const cheap = await startAuthStack({ dataDir, clock });
    await cheap.login();
    const atFirst = hashes().get('admin')!;
    expect(atFirst).toContain(`ln=${FAST_HASH},`);
    await cheap.stop();

    const costlier = await startAuthStack({ dataDir, clock, auth: { passwordCost: FAST_HASH + 1 } });
    try {
      const wrong = await costlier.call('POST', '/v1/auth/login', {
        body: { username: 'admin', password: 'not-the-password' },
      });
      expect(wrong.status).toBe(401);
      expect(hashes().get('admin')).toBe(atFirst);
      await costlier.login();
      const rehashed = hashes().get('admin')!;
      expect(rehashed).toContain(`ln=${FAST_HASH + 1},`);
      // At the configured cost already: a later login leaves the hash as it is.
      await costlier.login();
      expect(hashes().get('admin')).toBe(rehashed);
    } finally {
      await costlier.stop();
    }
  });
});

describe('usernames', () => {
  it('are stored trimmed and lower-case, and found whatever their case or surrounding spaces', async () => {
    const { backend, close } = memoryBackend();
    try {
      const accounts = await Accounts.load(backend, () => 0, noReplicas(backend, silentLogger()), FAST_HASH);
      const made = await accounts.create({ username: '  Wren.K ', password: 'wren-password' });
      expect(made.username).toBe('wren.k');
      expect(accounts.byUsername(' WREN.k  ')?.accountId).toBe(made.accountId);
      expect((await accounts.verify('Wren.K', 'wren-password'))?.accountId).toBe(made.accountId);
      await expect(accounts.create({ username: 'WREN.K', password: 'other-password' })).rejects.toSatisfy(
        (e) => e instanceof ProblemError && e.code === 'account_exists',
      );
    } finally {
      close();
    }
  });
});
