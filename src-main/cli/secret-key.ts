import { readFileSync } from 'node:fs';
import { UsageError } from './args';

/**
 * The secret key that seals the token signing keys in the database (auth/signing-keys.ts), from
 * `--secret-key-file` or else $SKIFF_SECRET_KEY; undefined when neither is given.
 *
 * Rules:
 * - The command line wins over the environment, as for every other setting.
 * - A file's trailing newline and spaces are not part of the key: `echo … > file` and a
 *   Kubernetes Secret made from a file both add one, and the same key must come out of both.
 * - The value is never echoed in an error; its length check (32 bytes at least) is made where
 *   it is used, so the desktop app and `serve` say the same.
 */
export function readSecretKey(file: string | undefined, env: string | undefined): string | undefined {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(
        `--secret-key-file ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const key = text.trimEnd();
    if (key === '') throw new UsageError(`--secret-key-file ${file}: the file is empty`);
    return key;
  }
  return env === undefined || env.trimEnd() === '' ? undefined : env.trimEnd();
}
