import { existsSync } from 'node:fs';

/** Polls until `check` stops throwing: watch-driven state arrives a moment after the cluster changes. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** True if `path` appears at any point within `ms`: a late write into a removed folder recreates it. */
export async function reappears(path: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (existsSync(path)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return existsSync(path);
}
