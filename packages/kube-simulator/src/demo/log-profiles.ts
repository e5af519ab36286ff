/**
 * What each demo app logs: startup lines, steady-state lines and last words before exiting.
 * Content is picked with the run's seeded Rng, so the same seed gives the same logs.
 */

import { type Msg, render } from './log-formats';
import type { LogProfile } from './log-kit';
import {
  coredns,
  grafana,
  kubeProxy,
  metricsServer,
  nodeExporter,
  prometheus,
} from './log-profiles-platform';
import { checkout, checkoutBad, envoy, nginx, payments, postgres, redis } from './log-profiles-shop';
import { cleanup, crashloop, migrate, oom, report, unhealthy, worker } from './log-profiles-workers';

export type { LogProfile, RunContext } from './log-kit';

export const PROFILES = {
  nginx,
  checkout,
  'checkout-bad': checkoutBad,
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
