import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';
import { readSecretKey } from './secret-key';

/** Where the secret key comes from (secret-key.ts) and the flag that names its file (args.ts). */

const dir = mkdtempSync(join(tmpdir(), 'secret-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('the secret key', () => {
  it('comes from --secret-key-file before $SKIFF_SECRET_KEY, without trailing newline or spaces', () => {
    expect(readSecretKey(file('k', 'from-the-file \n\n'), 'from-the-env')).toBe('from-the-file');
    expect(readSecretKey(undefined, 'from-the-env \n')).toBe('from-the-env');
    // Leading spaces are part of the key: only what editors and Secrets append is dropped.
    expect(readSecretKey(file('lead', '  key\n'), undefined)).toBe('  key');
  });

  it('is absent when neither is given, or the environment variable is empty', () => {
    expect(readSecretKey(undefined, undefined)).toBeUndefined();
    expect(readSecretKey(undefined, '')).toBeUndefined();
    expect(readSecretKey(undefined, ' \n')).toBeUndefined();
  });

  it('refuses an empty or unreadable file, naming it and never the content', () => {
    const empty = file('empty', '\n');
    expect(() => readSecretKey(empty, 'from-the-env')).toThrow(UsageError);
    expect(() => readSecretKey(empty, undefined)).toThrow(`--secret-key-file ${empty}: the file is empty`);
    const missing = join(dir, 'missing');
    expect(() => readSecretKey(missing, undefined)).toThrow(
      `--secret-key-file ${missing}: cannot read it (ENOENT)`,
    );
    expect(() => readSecretKey(dir, undefined)).toThrow(/cannot read it \(EISDIR\)/);
  });

  it('is named by --secret-key-file on the command line', () => {
    expect(parseServeArgs(['--secret-key-file', '/run/secrets/skiff'], { dataDir: '/d' }).secretKeyFile).toBe(
      '/run/secrets/skiff',
    );
    expect(parseServeArgs([], { dataDir: '/d' })).not.toHaveProperty('secretKeyFile');
  });
});
