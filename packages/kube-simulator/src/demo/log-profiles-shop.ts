/** Log profiles of the shop's web-facing apps and data stores. */

import { AGENTS, clf, error, info, ip, type LogProfile, MONTHS, none, PATHS, raw, warn } from './log-kit';

export const nginx: LogProfile = {
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

export const checkout: LogProfile = {
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

/** checkout 3.8.3 of the bad rollout (bad-rollout.ts): it cannot parse PAYMENTS_TIMEOUT and exits. */
export const checkoutBad: LogProfile = {
  format: 'json-zap',
  caller: 'checkout/config.go:57',
  intervalMs: 6000,
  tickChance: 0,
  maxSteady: 0,
  startup: () => [
    info('starting checkout service', { version: '3.8.3', port: 8080 }),
    error('invalid configuration', {
      key: 'PAYMENTS_TIMEOUT',
      value: '3s0',
      err: 'time: unknown unit "s0" in duration "3s0"',
    }),
  ],
  steady: () => info('waiting for configuration'),
  exit: (_ctx, code) => [error('exiting: configuration invalid', { exitCode: code })],
};

export const envoy: LogProfile = {
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

export const payments: LogProfile = {
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

export const redis: LogProfile = {
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

export const postgres: LogProfile = {
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
