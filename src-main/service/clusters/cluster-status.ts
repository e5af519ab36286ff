/**
 * A cluster's health as the cluster list shows it, probed with GET /version. Rules:
 * - An answer is kept for the TTL (10 s by default): a page of clusters costs each cluster one
 *   probe at most, and everyone asking meanwhile shares it.
 * - Any HTTP answer means connected, except 401 and 403 (unauthorized); a credential plugin that
 *   fails is a refusal of our credentials (unauthorized), not a network problem; no answer at all
 *   is unreachable. The probe waits the cluster's timeout, at most 5 s.
 * - A snapshot is never probed: its status is `snapshot`, with the version it was taken at.
 */
import type { ClusterStatus } from '../../../src-shared/contract/models';
import { ProblemError } from '../errors';
import { type KubeClient, KubeRequestError } from '../kube/kube-client';
import type { Logger } from '../logger';
import type { FrozenFacts } from './source-frozen';

const STATUS_PROBE_MAX_MS = 5_000;
const STATUS_TTL_MS = 10_000;

export interface ProbedStatus {
  status: ClusterStatus;
  version?: string;
}

export interface StatusProbeOptions {
  client: KubeClient;
  timeoutMs: number;
  logger: Logger;
  /** How long an answer stays fresh. */
  ttlMs?: number | undefined;
  /** A snapshot's facts: then nothing is probed. */
  snapshot?: FrozenFacts | undefined;
}

export class StatusProbe {
  private cached: { at: number; value: Promise<ProbedStatus> } | null = null;

  constructor(private readonly opts: StatusProbeOptions) {}

  status(): Promise<ProbedStatus> {
    const ttl = this.opts.ttlMs ?? STATUS_TTL_MS;
    if (this.cached && Date.now() - this.cached.at < ttl) return this.cached.value;
    const value = this.probe();
    this.cached = { at: Date.now(), value };
    return value;
  }

  private async probe(): Promise<ProbedStatus> {
    const { snapshot } = this.opts;
    if (snapshot)
      return {
        status: 'snapshot',
        ...(snapshot.kubernetesVersion ? { version: snapshot.kubernetesVersion } : {}),
      };
    try {
      const v = await this.opts.client.getJson<{ gitVersion?: string }>('/version', {
        timeoutMs: Math.min(this.opts.timeoutMs, STATUS_PROBE_MAX_MS),
      });
      return { status: 'connected', ...(v.gitVersion ? { version: v.gitVersion } : {}) };
    } catch (err) {
      if (err instanceof KubeRequestError && (err.statusCode === 401 || err.statusCode === 403)) {
        return { status: 'unauthorized' };
      }
      if (err instanceof KubeRequestError) return { status: 'connected' };
      if (err instanceof ProblemError && err.code === 'cluster_unauthorized')
        return { status: 'unauthorized' };
      if (!(err instanceof ProblemError)) this.opts.logger.warn({ err: String(err) }, 'status probe failed');
      return { status: 'unreachable' };
    }
  }
}
