/** Log profiles of workers, batch jobs and the deliberately broken demo apps. */

import { error, info, type LogProfile, none, raw, warn } from './log-kit';

export const worker: LogProfile = {
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

export const crashloop: LogProfile = {
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

export const oom: LogProfile = {
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

export const report: LogProfile = {
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

export const migrate: LogProfile = {
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

export const unhealthy: LogProfile = {
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

export const cleanup: LogProfile = {
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
