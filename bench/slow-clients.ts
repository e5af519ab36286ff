import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { BENCH_PASSWORD } from './list-pods';
import { startServiceProcess } from './service-process';
import { ms, percentile, table, type Verdict } from './stats';

/**
 * /v1/health while slow clients flood the service (the figure src-main/service/http/
 * slow-clients.it.test.ts checks only as states): a service process of its own, with the
 * production HTTP settings (headers timeout, request timeout, bound on waiting connections).
 * Health is asked on a fresh connection each time, as a client arriving now would: first with the
 * service idle (the baseline), then while a flood opens silent connections, connections that send
 * headers a byte at a time forever, and logins whose bodies come a byte at a time. The target is
 * p99 ≤ 100 ms during the flood; the ratio to the idle p99 of the same run says what the flood costs.
 * Everything is on loopback, bounded in count, and closed at the end.
 */

const TARGET_MS = 100;
const TICK_MS = 50;

export interface SlowClientFigures {
  idleP99: number;
  duringP99: number;
  flood: number;
}

/** One GET on a connection of its own; the time until its answer has been read whole. */
function freshHealth(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/health`, { agent: false, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`/v1/health answered ${res.statusCode}`)),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('/v1/health did not answer in 30 s')));
    req.on('error', reject);
    req.end();
  });
}

/** Slow connections, each fed one byte per tick; closeAll ends every one. */
class Flood {
  private readonly sockets = new Set<Socket>();
  private readonly feeding = new Map<Socket, Buffer>();
  private readonly ticker = setInterval(() => this.tick(), TICK_MS);

  constructor(private readonly port: number) {}

  async open(initial = '', dribble = ''): Promise<void> {
    const socket = connect(this.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.resume();
    socket.once('close', () => {
      this.sockets.delete(socket);
      this.feeding.delete(socket);
    });
    this.sockets.add(socket);
    await new Promise<void>((resolve) => {
      socket.once('connect', () => resolve());
      socket.once('close', () => resolve());
    });
    if (initial) socket.write(initial);
    if (dribble) this.feeding.set(socket, Buffer.from(dribble, 'latin1'));
  }

  get openCount(): number {
    return this.sockets.size;
  }

  private tick(): void {
    for (const [socket, rest] of this.feeding) {
      if (rest.length === 0 || socket.destroyed) {
        this.feeding.delete(socket);
        continue;
      }
      socket.write(rest.subarray(0, 1));
      this.feeding.set(socket, rest.subarray(1));
    }
  }

  closeAll(): void {
    clearInterval(this.ticker);
    for (const s of this.sockets) s.destroy();
  }
}

export async function benchSlowClients(
  dir: string,
  scale: { requests: number; warmup: number },
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<SlowClientFigures> {
  const svc = await startServiceProcess(
    ['--host', '127.0.0.1', '--port', '0', '--data-dir', join(dir, 'data')],
    { SKIFF_ADMIN_PASSWORD: BENCH_PASSWORD, KUBECONFIG: '', HOME: dir },
  );
  const host = new URL(svc.url).host;
  const flood = new Flood(Number(new URL(svc.url).port));
  try {
    for (let i = 0; i < scale.warmup; i++) await freshHealth(svc.url);
    const idle: number[] = [];
    for (let i = 0; i < scale.requests; i++) idle.push(await freshHealth(svc.url));

    // 200 rounds of three slow connections, as the integration test sends them.
    const rounds = 200;
    let opened = 0;
    let flooding = true;
    const attack = (async () => {
      try {
        const headers = `GET /v1/health HTTP/1.1\r\nHost: ${host}\r\n${'X-Slow: a\r\n'.repeat(10_000)}`;
        const body = `{"username":"admin","password":"${'x'.repeat(465)}"}`;
        const login = `POST /v1/auth/login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
        for (let i = 0; i < rounds; i++) {
          await flood.open();
          await flood.open('', headers);
          await flood.open(login, body);
          opened += 3;
        }
      } finally {
        flooding = false;
      }
    })();
    const during: number[] = [];
    while (flooding || during.length < scale.requests) during.push(await freshHealth(svc.url));
    await attack;
    const held = flood.openCount;
    const figures = { idleP99: percentile(idle, 99), duringP99: percentile(during, 99), flood: opened };
    console.log(
      `\n/v1/health on fresh connections while ${opened} slow connections arrive (${held} still open at the end; ${during.length} health requests)\n`,
    );
    console.log(
      table([
        {
          'idle p50': ms(percentile(idle, 50)),
          'idle p99': ms(figures.idleP99),
          'during p50': ms(percentile(during, 50)),
          'during p99': ms(figures.duringP99),
          'during max': ms(Math.max(...during)),
          'p99 ratio': `${(figures.duringP99 / figures.idleP99).toFixed(1)}×`,
        },
      ]),
    );
    verdicts.push({
      figure: `/v1/health p99 (fresh connections) during ${opened} slow connections (idle p99 ${ms(figures.idleP99)})`,
      measured: `${ms(figures.duringP99)} (${(figures.duringP99 / figures.idleP99).toFixed(1)}× idle)`,
      target: `≤ ${TARGET_MS} ms`,
      pass: judge(figures.duringP99 <= TARGET_MS),
    });
    return figures;
  } finally {
    flood.closeAll();
    await svc.stop();
  }
}
