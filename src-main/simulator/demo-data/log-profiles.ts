/**
 * What each demo app logs: startup lines, steady-state lines and last words before exiting.
 * Content is picked with the run's seeded Rng, so the same seed gives the same logs.
 */

import type { Rng } from '../random';
import { type FormatId, type Msg, render } from './log-formats';

export interface RunContext {
  namespace: string;
  pod: string;
  container: string;
  restartIndex: number;
}

export interface LogProfile {
  format: FormatId;
  caller?: string;
  /** Mean gap between steady-state lines in the backlog. */
  intervalMs: number;
  /** Chance per ticker tick of a new line while running. */
  tickChance: number;
  /** Caps the backlog of long-running containers. */
  maxBacklog?: number;
  /** Steady-state lines stop after this many (crashing apps die young). */
  maxSteady?: number;
  startup(ctx: RunContext, ts: number): Msg[];
  steady(rng: Rng, ts: number, ctx: RunContext): Msg;
  exit(ctx: RunContext, exitCode: number, ts: number): Msg[];
}

const info = (text: string, fields?: Msg['fields']): Msg => ({
  level: 'info',
  text,
  ...(fields ? { fields } : {}),
});
const warn = (text: string, fields?: Msg['fields']): Msg => ({
  level: 'warn',
  text,
  ...(fields ? { fields } : {}),
});
const error = (text: string, fields?: Msg['fields']): Msg => ({
  level: 'error',
  text,
  ...(fields ? { fields } : {}),
});
const raw = (text: string): Msg => ({ level: 'info', text, raw: true });
const none = (): Msg[] => [];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const PATHS = [
  '/',
  '/api/products',
  '/api/cart',
  '/api/cart/items',
  '/static/app.js',
  '/healthz',
  '/api/recommendations',
];
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64)', 'kube-probe/1.31', 'curl/8.5.0', 'Go-http-client/1.1'];

function clf(ts: number): string {
  const d = new Date(ts);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

function ip(rng: Rng): string {
  return `10.244.${rng.int(1, 3)}.${rng.int(2, 250)}`;
}

const nginx: LogProfile = {
  format: 'raw',
  intervalMs: 4000,
  tickChance: 0.7,
  startup: () => [
    raw('/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration'),
    raw('/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/'),
    raw('10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf'),
    raw('/docker-entrypoint.sh: Configuration complete; ready for start up'),
  ],
  steady(rng, ts) {
    if (rng.chance(0.04)) {
      const d = new Date(ts).toISOString().replace('T', ' ').slice(0, 19).replace(/-/g, '/');
      return raw(
        `${d} [error] 29#29: *${rng.int(100, 9999)} connect() failed (111: Connection refused) while connecting to upstream, client: ${ip(rng)}, server: _, request: "GET /api/cart HTTP/1.1", upstream: "http://10.96.14.2:8080/api/cart"`,
      );
    }
    const path = rng.pick(PATHS);
    const code = path === '/healthz' ? 200 : rng.pick([200, 200, 200, 200, 304, 404, 499, 502]);
    return raw(
      `${ip(rng)} - - [${clf(ts)}] "GET ${path} HTTP/1.1" ${code} ${rng.int(0, 24000)} "-" "${rng.pick(AGENTS)}" "-"`,
    );
  },
  exit: none,
};

const checkout: LogProfile = {
  format: 'json-zap',
  caller: 'checkout/handler.go:142',
  intervalMs: 6000,
  tickChance: 0.5,
  startup: () => [
    info('starting checkout service', { version: '3.8.2', port: 8080 }),
    info('connected to payments', { target: 'payments.shop.svc.cluster.local:9090' }),
    info('cache warmed', { entries: 1822 }),
  ],
  steady(rng) {
    const r = rng.next();
    if (r < 0.05)
      return error('payment authorization failed', {
        orderId: `ord-${rng.int(10000, 99999)}`,
        err: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded',
      });
    if (r < 0.15)
      return warn('slow downstream call', { service: 'inventory', latencyMs: rng.int(800, 2400) });
    return info('order placed', {
      orderId: `ord-${rng.int(10000, 99999)}`,
      items: rng.int(1, 6),
      totalCents: rng.int(500, 40000),
    });
  },
  exit: () => [info('shutting down gracefully')],
};

const envoy: LogProfile = {
  format: 'raw',
  intervalMs: 6000,
  tickChance: 0.5,
  startup: (_ctx, ts) => [
    raw(
      `[${new Date(ts).toISOString()}][1][info][main] [source/server/server.cc:932] starting main dispatch loop`,
    ),
  ],
  steady(rng, ts) {
    const code = rng.pick([200, 200, 200, 201, 503]);
    return raw(
      `[${new Date(ts).toISOString()}] "POST /v1/checkout HTTP/1.1" ${code} ${code === 503 ? 'UF' : '-'} ${rng.int(100, 900)} ${rng.int(40, 4000)} ${rng.int(2, 400)} - "${ip(rng)}" "checkout-web/3.8" "${rng.int(1e7, 9e7).toString(16)}-4c1b" "checkout.shop.svc.cluster.local" "127.0.0.1:8080"`,
    );
  },
  exit: none,
};

const payments: LogProfile = {
  format: 'logfmt',
  intervalMs: 8000,
  tickChance: 0.4,
  startup: () => [
    info('payments service starting', { version: '1.14.0' }),
    info('listening', { addr: ':9090' }),
  ],
  steady(rng) {
    const r = rng.next();
    if (r < 0.06)
      return error('card declined', {
        provider: 'stripe',
        code: 'card_declined',
        amount: rng.int(500, 9000),
      });
    if (r < 0.12)
      return warn('provider latency above threshold', {
        provider: 'stripe',
        latency: `${rng.int(900, 3000)}ms`,
      });
    return info('payment authorized', { amount: rng.int(500, 40000), currency: 'EUR', provider: 'stripe' });
  },
  exit: none,
};

const redis: LogProfile = {
  format: 'raw',
  intervalMs: 60_000,
  tickChance: 0.05,
  startup: (_ctx, ts) => [
    raw(`1:C ${redisTime(ts)} # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo`),
    raw(`1:M ${redisTime(ts)} * Running mode=standalone, port=6379.`),
    raw(`1:M ${redisTime(ts)} * Ready to accept connections tcp`),
  ],
  steady: (rng, ts) =>
    rng.chance(0.5)
      ? raw(`1:M ${redisTime(ts)} * ${rng.int(10, 100)} changes in 300 seconds. Saving...`)
      : raw(`1:M ${redisTime(ts)} * Background saving started by pid ${rng.int(100, 9000)}`),
  exit: none,
};

function redisTime(ts: number): string {
  const d = new Date(ts);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
}

function pgTime(ts: number): string {
  return `${new Date(ts).toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}

const postgres: LogProfile = {
  format: 'raw',
  intervalMs: 45_000,
  tickChance: 0.08,
  startup: (_ctx, ts) => [
    raw(`${pgTime(ts)} [1] LOG:  starting PostgreSQL 16.6 on x86_64-pc-linux-gnu`),
    raw(`${pgTime(ts)} [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432`),
    raw(`${pgTime(ts)} [1] LOG:  database system is ready to accept connections`),
  ],
  steady(rng, ts) {
    if (rng.chance(0.1))
      return raw(
        `${pgTime(ts)} [${rng.int(100, 999)}] ERROR:  duplicate key value violates unique constraint "orders_pkey"`,
      );
    return raw(
      `${pgTime(ts)} [27] LOG:  checkpoint complete: wrote ${rng.int(3, 900)} buffers (${rng.int(0, 5)}.${rng.int(0, 9)}%)`,
    );
  },
  exit: none,
};

const coredns: LogProfile = {
  format: 'bracket',
  intervalMs: 10_000,
  tickChance: 0.3,
  startup: () => [
    info('plugin/reload: Running configuration SHA512 = 591cf328cccc12bc4'),
    raw('CoreDNS-1.11.3'),
    raw('linux/amd64, go1.21.11, a6338e9'),
  ],
  steady(rng) {
    const r = rng.next();
    if (r < 0.07)
      return error(
        `plugin/errors: 2 ${rng.int(1000, 9999)}.example.invalid. A: read udp 10.244.1.3:${rng.int(30000, 60000)}->10.0.0.2:53: i/o timeout`,
      );
    if (r < 0.12)
      return warn(
        'plugin/kubernetes: Kubernetes API connection failure: Get "https://10.96.0.1:443/version": dial tcp 10.96.0.1:443: i/o timeout',
      );
    return info(
      `${ip(rng)}:${rng.int(30000, 60000)} - ${rng.int(1, 65000)} "A IN checkout.shop.svc.cluster.local. udp 51 false 512" NOERROR qr,aa,rd 110 0.000${rng.int(100, 999)}s`,
    );
  },
  exit: none,
};

const kubeProxy: LogProfile = {
  format: 'klog',
  caller: 'proxier.go:812',
  intervalMs: 120_000,
  tickChance: 0.03,
  startup: () => [
    info('Using iptables proxy'),
    info('Successfully retrieved node IP(s)'),
    info('Starting endpoint slice config controller'),
  ],
  steady: (rng) => (rng.chance(0.2) ? warn('Sync failed; retrying in 1s') : info('Syncing iptables rules')),
  exit: none,
};

const metricsServer: LogProfile = {
  format: 'klog',
  caller: 'scraper.go:149',
  intervalMs: 60_000,
  tickChance: 0.05,
  startup: () => [
    info('Serving securely on [::]:10250'),
    info('Starting RequestHeaderAuthRequestController'),
  ],
  steady: () =>
    error(
      '"Failed to scrape node" err="Get \\"https://10.0.1.13:10250/metrics/resource\\": dial tcp 10.0.1.13:10250: connect: no route to host" node="worker-3"',
    ),
  exit: none,
};

const prometheus: LogProfile = {
  format: 'logfmt-ts-first',
  caller: 'head.go:1293',
  intervalMs: 120_000,
  tickChance: 0.04,
  startup: () => [
    info('Starting Prometheus Server', { mode: 'server', version: '(version=2.55.1)' }),
    info('Server is ready to receive web requests.'),
  ],
  steady: (rng) =>
    rng.chance(0.2)
      ? warn('Error on ingesting samples that are too old or are too far into the future', {
          component: 'scrape manager',
          num_dropped: rng.int(1, 40),
        })
      : info('Head GC completed', {
          component: 'tsdb',
          duration: `${rng.int(2, 90)}.${rng.int(100, 999)}ms`,
        }),
  exit: none,
};

const grafana: LogProfile = {
  format: 'json-severity',
  intervalMs: 30_000,
  tickChance: 0.1,
  startup: () => [
    info('Starting Grafana', { version: '11.3.1' }),
    info('HTTP Server Listen', { address: '[::]:3000' }),
  ],
  steady: (rng) =>
    rng.chance(0.1)
      ? {
          level: 'error',
          text: 'Failed to query data source',
          fields: { datasource: 'prometheus', error: 'context deadline exceeded' },
        }
      : info('Request Completed', {
          method: 'GET',
          path: '/api/dashboards/uid/k8s',
          status: 200,
          duration: `${rng.int(3, 300)}ms`,
        }),
  exit: none,
};

const nodeExporter: LogProfile = {
  format: 'logfmt-ts-first',
  caller: 'node_exporter.go:193',
  intervalMs: 600_000,
  tickChance: 0.01,
  startup: () => [
    info('Starting node_exporter', { version: '(version=1.8.2)' }),
    info('Listening on', { address: '[::]:9100' }),
  ],
  steady: () => info('TLS is disabled.', { http2: false }),
  exit: none,
};

const worker: LogProfile = {
  format: 'json-lvl',
  intervalMs: 15_000,
  tickChance: 0.25,
  startup: () => [info('worker started', { queue: 'default', concurrency: 4 })],
  steady(rng) {
    const r = rng.next();
    if (r < 0.04)
      return error('job failed', { job: `j-${rng.int(1000, 9999)}`, err: 'upstream returned 500' });
    if (r < 0.1) return warn('job retried', { job: `j-${rng.int(1000, 9999)}`, attempt: rng.int(2, 5) });
    return info('job done', { job: `j-${rng.int(1000, 9999)}`, ms: rng.int(5, 900) });
  },
  exit: () => [info('worker stopped')],
};

const crashloop: LogProfile = {
  format: 'prefix',
  intervalMs: 2000,
  tickChance: 0.9,
  maxSteady: 3,
  startup: (ctx) => [
    info(`starting order-sync v2.4.1 (attempt ${ctx.restartIndex + 1})`),
    info('connecting to postgres at postgres.shop.svc.cluster.local:5432'),
  ],
  steady: (rng) => warn(`database not reachable, retrying (attempt ${rng.int(1, 3)}/3)`),
  exit: (_ctx, code) =>
    code === 0
      ? []
      : [
          error('failed to connect to database: dial tcp 10.96.120.15:5432: connect: connection refused'),
          raw('panic: database unavailable'),
          raw(''),
          raw('goroutine 1 [running]:'),
          raw('main.main()'),
          raw('\t/src/cmd/order-sync/main.go:57 +0x1d4'),
        ],
};

const oom: LogProfile = {
  format: 'json-severity',
  intervalMs: 5000,
  tickChance: 0.6,
  startup: () => [
    info('image-resizer starting', { heapLimit: '256Mi' }),
    info('loaded 4312 thumbnails into cache'),
  ],
  steady: (rng) =>
    rng.chance(0.3)
      ? warn('cache above high-water mark', { cacheMiB: rng.int(180, 250) })
      : info('resized image', {
          id: `img-${rng.int(1e5, 9e5)}`,
          px: rng.pick(['1024x768', '2048x1536', '4096x3072']),
        }),
  exit: () => [],
};

const report: LogProfile = {
  format: 'python',
  caller: 'report.main:',
  intervalMs: 20_000,
  tickChance: 0.2,
  maxSteady: 6,
  startup: () => [
    info('Generating nightly sales report'),
    info('Connecting to warehouse postgres.shop.svc:5432'),
  ],
  steady: (rng) => info(`Processed ${rng.int(1, 50) * 1000} rows`),
  exit: (_ctx, code) =>
    code === 0
      ? [info('Report uploaded to s3://acme-reports/nightly/report.csv'), info('Done.')]
      : [
          error('Upload failed'),
          raw('Traceback (most recent call last):'),
          raw('  File "/app/report/main.py", line 88, in upload'),
          raw('    s3.put_object(Bucket=bucket, Key=key, Body=data)'),
          raw(
            'botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied',
          ),
        ],
};

const migrate: LogProfile = {
  format: 'raw',
  intervalMs: 1000,
  tickChance: 0,
  maxSteady: 3,
  startup: () => [
    raw('Checking database schema version... 41'),
    raw('Applying migration 0042_add_orders_index... OK'),
  ],
  steady: () => raw('Vacuuming orders... OK'),
  exit: () => [raw('Schema is up to date (version 42).')],
};

const unhealthy: LogProfile = {
  format: 'json-zap',
  caller: 'search/ready.go:31',
  intervalMs: 5000,
  tickChance: 0.6,
  startup: () => [
    info('search-api starting', { version: '0.9.0' }),
    info('loading index from /data/index', { shards: 12 }),
  ],
  steady: (rng) =>
    rng.chance(0.7)
      ? warn('readiness check failed', {
          reason: 'index not loaded',
          loadedShards: rng.int(0, 11),
          status: 503,
        })
      : info('still loading index', { progress: `${rng.int(1, 99)}%` }),
  exit: none,
};

const cleanup: LogProfile = {
  format: 'prefix',
  intervalMs: 15_000,
  tickChance: 0.3,
  startup: () => [info('cleanup started: pruning objects older than 7d')],
  steady: (rng) =>
    rng.chance(0.1)
      ? warn(`skipping locked object tmp/${rng.int(1e4, 9e4)}`)
      : info(`deleted ${rng.int(1, 200)} objects`),
  exit: () => [info('cleanup finished')],
};

export const PROFILES = {
  nginx,
  checkout,
  envoy,
  payments,
  redis,
  postgres,
  coredns,
  'kube-proxy': kubeProxy,
  'metrics-server': metricsServer,
  prometheus,
  grafana,
  'node-exporter': nodeExporter,
  worker,
  crashloop,
  oom,
  report,
  migrate,
  unhealthy,
  cleanup,
} satisfies Record<string, LogProfile>;

export type LogProfileId = keyof typeof PROFILES;

export function renderMsg(profile: LogProfile, ts: number, msg: Msg): string {
  return render(profile.format, ts, msg, profile.caller);
}
