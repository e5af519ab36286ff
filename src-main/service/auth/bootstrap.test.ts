import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIN_PASSWORD_LENGTH } from '../../../src-shared/contract/auth-operations';
import { silentLogger } from '../logger';
import { Accounts } from './accounts';
import { type MemoryBackend, memoryBackend } from './backends.test-support';
import {
  ADMIN_PASSWORD_FILE,
  bootstrapAdmin,
  firstLoginOf,
  forgetInitialPassword,
  printAdminCreated,
} from './bootstrap';
import type { AdminCreatedInfo } from './options';
import { noReplicas } from './replica-sync';
import { FAST_HASH } from './stack.test-support';

let db: MemoryBackend;
let accounts: Accounts;
let dir: string;
const load = (now: () => number) =>
  Accounts.load(db.backend, now, noReplicas(db.backend, silentLogger()), FAST_HASH);
beforeEach(async () => {
  db = memoryBackend();
  accounts = await load(() => Date.parse('2026-03-01T09:00:00Z'));
  dir = mkdtempSync(join(tmpdir(), 'skiff-bootstrap-'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A real pino logger whose lines are kept, to see what an operator would read. */
function recordingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('the first administrator', () => {
  it('is not created from a configured password shorter than the minimum; the start fails instead', async () => {
    const short = 'x'.repeat(MIN_PASSWORD_LENGTH - 1);
    await expect(bootstrapAdmin(accounts, { adminPassword: short, logger: silentLogger() })).rejects.toThrow(
      /SKIFF_ADMIN_PASSWORD.*\d+ characters/,
    );
    expect(accounts.isEmpty).toBe(true);
  });

  it('gets a generated password, written with a trailing newline to a file only its owner can read', async () => {
    let shown: AdminCreatedInfo | undefined;
    await bootstrapAdmin(accounts, {
      dataDir: dir,
      logger: silentLogger(),
      onAdminCreated: (i) => (shown = i),
    });
    const file = join(dir, ADMIN_PASSWORD_FILE);
    expect(shown).toEqual({ username: 'admin', generatedPassword: expect.any(String), passwordFile: file });
    expect(readFileSync(file, 'utf8')).toBe(`${shown!.generatedPassword}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await accounts.verify('admin', shown!.generatedPassword!)).toMatchObject({ role: 'admin' });
  });

  it('without a data dir, has its generated password shown only, never written anywhere', async () => {
    let shown: AdminCreatedInfo | undefined;
    await bootstrapAdmin(accounts, { logger: silentLogger(), onAdminCreated: (i) => (shown = i) });
    expect(shown).toEqual({ username: 'admin', generatedPassword: expect.any(String) });
    expect(await accounts.verify('admin', shown!.generatedPassword!)).not.toBeNull();
  });

  it('is left alone on a later start: a configured password is ignored, and the operator is told so', async () => {
    await bootstrapAdmin(accounts, {
      adminPassword: 'first-password',
      logger: silentLogger(),
      onAdminCreated: () => {},
    });
    const quiet = recordingLogger();
    await bootstrapAdmin(accounts, { logger: quiet.logger, onAdminCreated: () => {} });
    expect(quiet.lines).toEqual([]);

    const told = recordingLogger();
    const created = vi.fn();
    await bootstrapAdmin(accounts, {
      adminPassword: 'second-password',
      logger: told.logger,
      onAdminCreated: created,
    });
    expect(created).not.toHaveBeenCalled();
    expect(told.lines).toHaveLength(1);
    expect(told.lines[0]!.msg).toMatch(/admin password/);
    expect(JSON.stringify(told.lines)).not.toContain('second-password');
    expect(await accounts.verify('admin', 'second-password')).toBeNull();
    expect(await accounts.verify('admin', 'first-password')).not.toBeNull();
    expect(accounts.list()).toHaveLength(1);
  });
});

describe('the first-start notice on stderr', () => {
  let printed: string[];
  beforeEach(() => {
    printed = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('names the account and the generated password, then where it was written and how to change it', () => {
    printAdminCreated({
      username: 'admin',
      generatedPassword: 'Gen3rated-pw',
      passwordFile: '/data/pw-file',
    });
    expect(printed).toHaveLength(1);
    const [line] = printed;
    expect(line).toContain('"admin"');
    expect(line).toContain('Gen3rated-pw (also written to /data/pw-file');
    expect(line).toContain('/v1/auth/password');
    expect(line!.endsWith('\n')).toBe(true);
  });

  it('without a file, ends the password with the sentence rather than naming a place', () => {
    printAdminCreated({ username: 'admin', generatedPassword: 'Gen3rated-pw' });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('Gen3rated-pw. ');
    expect(printed[0]).not.toContain('written to');
  });

  it('for a configured password names the account and the variable, and shows no password', () => {
    printAdminCreated({ username: 'admin' });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('"admin"');
    expect(printed[0]).toContain('SKIFF_ADMIN_PASSWORD');
    expect(printed[0]).not.toContain('undefined');
  });
});

describe('forgetting the initial password file', () => {
  it('happens only for the admin account, and is a no-op without a data dir or a file', () => {
    const file = join(dir, ADMIN_PASSWORD_FILE);
    writeFileSync(file, 'pw\n', { mode: 0o600 });
    forgetInitialPassword(dir, 'dev.one');
    expect(existsSync(file)).toBe(true);
    expect(() => forgetInitialPassword(undefined, 'admin')).not.toThrow();
    expect(existsSync(file)).toBe(true);
    forgetInitialPassword(dir, 'admin');
    expect(existsSync(file)).toBe(false);
    expect(() => forgetInitialPassword(dir, 'admin')).not.toThrow();
  });
});

describe('where the first password is', () => {
  let t: number;
  let clocked: Accounts;
  beforeEach(async () => {
    t = Date.parse('2026-03-01T09:00:00Z');
    clocked = await load(() => t);
  });
  const first = (dataDir: string | undefined) =>
    bootstrapAdmin(clocked, {
      ...(dataDir ? { dataDir } : {}),
      logger: silentLogger(),
      onAdminCreated: () => {},
    });

  it('is its file while the generated admin is the only account with its first password', async () => {
    expect(firstLoginOf(clocked, dir, false)).toBeNull();
    expect(await first(dir)).toBe(true);
    const file = join(dir, ADMIN_PASSWORD_FILE);
    expect(firstLoginOf(clocked, dir, false)).toEqual({ username: 'admin', passwordFile: file });
    t += 1_000;
    await clocked.create({ username: 'dev.one', password: 'another-password' });
    expect(firstLoginOf(clocked, dir, false)).toBeNull();
  });

  it('is nothing once the password changed (its file left behind or not), or the file is gone', async () => {
    await first(dir);
    t += 1_000;
    await clocked.update(clocked.byUsername('admin')!.accountId, { password: 'chosen-password' });
    expect(firstLoginOf(clocked, dir, false)).toBeNull();
    rmSync(join(dir, ADMIN_PASSWORD_FILE));
    expect(firstLoginOf(clocked, dir, false)).toBeNull();
  });

  it('is nothing when the file is removed by hand', async () => {
    await first(dir);
    rmSync(join(dir, ADMIN_PASSWORD_FILE));
    expect(firstLoginOf(clocked, dir, false)).toBeNull();
  });

  it('without a data dir: the console, for the run that generated it only', async () => {
    expect(await first(undefined)).toBe(true);
    expect(firstLoginOf(clocked, undefined, true)).toEqual({ username: 'admin', passwordFile: null });
    expect(firstLoginOf(clocked, undefined, false)).toBeNull();
  });

  it('is nothing for a configured password, which was never generated', async () => {
    const generated = await bootstrapAdmin(clocked, {
      adminPassword: 'configured-password',
      dataDir: dir,
      logger: silentLogger(),
      onAdminCreated: () => {},
    });
    expect(generated).toBe(false);
    expect(firstLoginOf(clocked, dir, generated)).toBeNull();
    expect(firstLoginOf(clocked, undefined, generated)).toBeNull();
  });

  it('is nothing when the only account is not admin', async () => {
    await clocked.create({ username: 'dev.one', password: 'another-password', role: 'admin' });
    writeFileSync(join(dir, ADMIN_PASSWORD_FILE), 'pw\n');
    expect(firstLoginOf(clocked, dir, true)).toBeNull();
  });

  it('is said again on a later start (the place, not the password), and not once it changed', async () => {
    await first(dir);
    const told: AdminCreatedInfo[] = [];
    const again = await bootstrapAdmin(clocked, {
      dataDir: dir,
      logger: silentLogger(),
      onAdminCreated: (i) => told.push(i),
    });
    expect(again).toBe(false);
    expect(told).toEqual([
      { username: 'admin', passwordFile: join(dir, ADMIN_PASSWORD_FILE), reminder: true },
    ]);
    forgetInitialPassword(dir, 'admin');
    await bootstrapAdmin(clocked, {
      dataDir: dir,
      logger: silentLogger(),
      onAdminCreated: (i) => told.push(i),
    });
    expect(told).toHaveLength(1);
  });
});

describe('the later-start reminder on stderr', () => {
  it('names the account and the file, and no password', () => {
    const printed: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      printAdminCreated({ username: 'admin', passwordFile: '/data/pw-file', reminder: true });
    } finally {
      vi.restoreAllMocks();
    }
    expect(printed).toEqual([
      'skiff: account "admin" still has the password generated at first start; it is in /data/pw-file ' +
        '(readable only by you). Change it with POST /v1/auth/password.\n',
    ]);
  });
});
