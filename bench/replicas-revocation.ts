import { login } from '../src-main/service/test-support/login.test-support';
import { BENCH_PASSWORD } from './list-pods';

/**
 * Issue 25 §2's "refused by every replica within 1 s", measured: a session logged out (or an API
 * key revoked) on replica A, and replica B asked in a tight loop until it refuses the credential.
 * The time is from A's answer to B's first refusal, so it is an upper bound of B's own delay.
 * Before each trial B has accepted the credential, so a cached "still valid" is what is tested.
 * Bounded: a trial that has not seen the refusal in 10 s stops the bench with an error.
 */

const GIVE_UP_MS = 10_000;

async function status(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${url}/v1/workspaces`, { headers, signal: AbortSignal.timeout(GIVE_UP_MS) });
  await res.arrayBuffer();
  return res.status;
}

/** Milliseconds from `revoke` answering on A until B refuses `headers`. */
async function untilRefused(
  what: string,
  b: string,
  headers: Record<string, string>,
  revoke: () => Promise<Response>,
): Promise<number> {
  // A credential made on A a moment ago may reach B a moment later; B must accept it first.
  const since = performance.now();
  for (let s = await status(b, headers); s !== 200; s = await status(b, headers)) {
    if (performance.now() - since > GIVE_UP_MS)
      throw new Error(`${what}: the other replica never accepted the credential (${s})`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const res = await revoke();
  if (!res.ok)
    throw new Error(`${what}: revoking answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const t0 = performance.now();
  for (;;) {
    if ((await status(b, headers)) === 401) return performance.now() - t0;
    if (performance.now() - t0 > GIVE_UP_MS)
      throw new Error(
        `${what}: the other replica still accepts the credential ${GIVE_UP_MS} ms after it was revoked`,
      );
  }
}

export async function revocationTimes(
  a: string,
  b: string,
  trials: number,
): Promise<{ logout: number[]; apiKey: number[] }> {
  const logout: number[] = [];
  const apiKey: number[] = [];
  const admin = await login(a, 'admin', BENCH_PASSWORD);
  for (let i = 0; i < trials; i++) {
    const s = await login(a, 'admin', BENCH_PASSWORD);
    logout.push(
      await untilRefused(`logout ${i + 1} of ${trials}`, b, s.headers, () =>
        fetch(`${a}/v1/auth/sessions/${s.sessionId}/logout`, { method: 'POST', headers: admin.headers }),
      ),
    );
    const created = await fetch(`${a}/v1/auth/api-keys`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-${i}` }),
    });
    const { apiKey: record, key } = (await created.json()) as { apiKey: { apiKeyId: string }; key: string };
    apiKey.push(
      await untilRefused(`API key ${i + 1} of ${trials}`, b, { 'x-api-key': key }, () =>
        fetch(`${a}/v1/auth/api-keys/${record.apiKeyId}`, { method: 'DELETE', headers: admin.headers }),
      ),
    );
  }
  return { logout, apiKey };
}
