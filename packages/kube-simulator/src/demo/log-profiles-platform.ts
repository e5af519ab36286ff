/** Log profiles of cluster components: DNS, kube-proxy, metrics-server and monitoring. */

import { error, info, ip, type LogProfile, none, raw, warn } from './log-kit';

export const coredns: LogProfile = {
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

export const kubeProxy: LogProfile = {
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

export const metricsServer: LogProfile = {
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

export const prometheus: LogProfile = {
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

export const grafana: LogProfile = {
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

export const nodeExporter: LogProfile = {
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
