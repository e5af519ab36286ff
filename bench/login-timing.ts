import { mkdir } from 'node:fs/promises';
import { createService } from '../src-main/service/index';
import { silentLogger } from '../src-main/service/logger';
import { median, ms, table, type Verdict } from './stats';

/**
 * A failed login takes as long for an unknown username as for a wrong password (the figure that
 * src-main/service/auth/limits.it.test.ts checks only as a state: one scrypt derivation at the
 * accounts' cost either way). A service in this process with the production password cost; the
 * two kinds of failure alternate, each from an address of its own (x-forwarded-for from a trusted
 * loopback proxy) so that no rate limit or login backoff applies, and their medians are compared.
 */

const LOW = 0.8;
const HIGH = 1.25;

export interface LoginTimingFigures {
  unknownMs: number;
  wrongMs: number;
  ratio: number;
}

export async function benchLoginTiming(
  dataDir: string,
  samples: number,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<LoginTimingFigures> {
  await mkdir(dataDir, { recursive: true });
  const service = createService({
    dataDir,
    contexts: [],
    logger: silentLogger(),
    adminPassword: 'bench-admin-password',
    auth: { geoipDb: false as const, trustProxy: ['127.0.0.1'], onAdminCreated: () => {} },
  });
  const { url } = await service.listen(0, '127.0.0.1');
  let address = 0;
  const fail = async (username: string): Promise<number> => {
    const n = address++;
    const t = performance.now();
    const res = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.2.${n >> 8}.${n & 255}` },
      body: JSON.stringify({ username, password: 'not-the-password' }),
    });
    await res.arrayBuffer();
    const took = performance.now() - t;
    if (res.status !== 401) throw new Error(`a failed login answered ${res.status}`);
    return took;
  };
  try {
    await fail('warm-up');
    await fail('admin');
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < samples; i++) {
      unknown.push(await fail(`ghost-${i}`));
      wrong.push(await fail('admin'));
    }
    const figures = {
      unknownMs: median(unknown),
      wrongMs: median(wrong),
      ratio: median(unknown) / median(wrong),
    };
    console.log(`\nFailed logins, production password cost, ${samples} of each kind alternating\n`);
    console.log(
      table([
        {
          'unknown username, median': ms(figures.unknownMs),
          'wrong password, median': ms(figures.wrongMs),
          'unknown ÷ wrong': figures.ratio.toFixed(2),
        },
      ]),
    );
    verdicts.push({
      figure: 'failed login: unknown username ÷ wrong password, medians',
      measured: `${figures.ratio.toFixed(2)} (${ms(figures.unknownMs)} vs ${ms(figures.wrongMs)})`,
      target: `${LOW.toFixed(2)}–${HIGH.toFixed(2)}`,
      pass: judge(figures.ratio >= LOW && figures.ratio <= HIGH),
    });
    return figures;
  } finally {
    await service.close();
  }
}
