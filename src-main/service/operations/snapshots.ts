import { open } from 'node:fs/promises';
import type { StreamBody } from '../../../src-shared/contract/define';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import {
  DEFAULT_SNAPSHOT_LOG_LINES,
  SNAPSHOT_MEDIA_TYPE,
} from '../../../src-shared/contract/snapshot-operations';
import { requireAdmin } from '../auth/guard';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers, Principal } from '../context';
import { ProblemError } from '../errors';
import type { EventHistory } from '../events/history/index';
import type { Recorded } from '../history/index';
import type { SnapshotJobs } from '../snapshots/jobs';
import type { SnapshotOpener } from '../snapshots/open';
import { clusterSource } from '../snapshots/source';
import { closeSnapshotHandler } from './snapshot-close';
import { openSnapshotHandler } from './snapshot-open';

/**
 * Capture jobs (issue 10 §2): start one (administrators), poll it, download its file (whoever can
 * see the cluster: the file holds nothing they cannot read through the API; with `--authorize
 * rbac`, its taker and whoever may read all of it, see requireWholeRead). Opening files is
 * snapshot-open's. A body's `kinds` are resolved against the cluster as resourceType is
 * (ClusterConnection.kind) before the job starts, so a name it does not serve is the 400.
 */
export interface SnapshotDeps {
  registry: ClusterRegistry;
  history: EventHistory;
  jobs: SnapshotJobs;
  opener: SnapshotOpener;
  /** What Skiff records beyond events (issue 27): a capture takes it up to its start (format 3). */
  recorded?: Recorded;
}

const notFound = (snapshotId: string) =>
  new ProblemError('snapshot_not_found', `snapshot "${snapshotId}" not found`);

/**
 * A job is seen only by those who can see its cluster's workspace; to everyone else it does not
 * exist (the same 404), as a workspace they are not a member of does not.
 */
async function visibleJob(
  deps: SnapshotDeps,
  snapshotId: string,
  principal: Principal,
): Promise<SnapshotJob> {
  const job = await deps.jobs.get(snapshotId);
  if (!job) throw notFound(snapshotId);
  if (principal.workspaces === 'all') return job;
  try {
    deps.registry.cluster(job.workspaceId, job.clusterId, principal);
  } catch {
    throw notFound(snapshotId);
  }
  return job;
}

/**
 * `--authorize rbac`: a file holds what its taker could read, which may be more than the caller
 * can. Its taker (the account recorded with the job) downloads it: it holds only what they could
 * read when they took it. Anyone else must be able to read everything (`list` of every resource in
 * every group, cluster-wide); others get the 403 naming that permission. A job whose cluster is
 * gone (or a snapshot, open) asks nothing.
 */
async function requireWholeRead(deps: SnapshotDeps, job: SnapshotJob, principal: Principal): Promise<void> {
  if ((await deps.jobs.takerOf(job.snapshotId)) === principal.accountId) return;
  let cluster: ReturnType<ClusterRegistry['cluster']>;
  try {
    cluster = deps.registry.cluster(job.workspaceId, job.clusterId, principal);
  } catch {
    return;
  }
  await deps.registry.access(cluster, principal).require({ verb: 'list', group: '*', resource: '*' });
}

export function snapshotHandlers(
  deps: SnapshotDeps,
): Pick<
  OperationHandlers,
  'createSnapshot' | 'getSnapshot' | 'downloadSnapshot' | 'openSnapshot' | 'closeSnapshot'
> {
  return {
    createSnapshot: async ({ params, body }, ctx) => {
      // Administrators only (and by session: the contract refuses API keys, which are never an
      // administrator's): a capture reads everything of a cluster, every log included, at once,
      // writes it to this service's disk and takes one of its few capture slots.
      requireAdmin(ctx.principal, 'take snapshots');
      const cluster = deps.registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      // A capture reads a cluster's apiserver; a snapshot has none, and is a file already.
      if (cluster.snapshot)
        throw new ProblemError(
          'conflict',
          `cluster "${cluster.clusterId}" is a snapshot (of ${cluster.snapshot.context}, taken ${cluster.snapshot.takenAt}): it is a file already, so it cannot be captured again`,
        );
      const history = deps.history.recording ? deps.history : undefined;
      // Names are resolved before the job starts, so one the cluster does not serve is this 400.
      const kinds = body?.kinds
        ? await Promise.all(body.kinds.map((name) => cluster.kind(name, ctx.signal)))
        : undefined;
      // `--authorize rbac`: the capture takes only what its taker may read; the rest is gaps.
      const access = deps.registry.access(cluster, ctx.principal);
      // What Skiff recorded up to the capture's start; changes still batched are written first.
      const changes = deps.recorded?.changes;
      const recorded = deps.recorded && {
        db: deps.recorded.deps.backend,
        ...(changes ? { flush: () => changes.flush() } : {}),
      };
      const source = clusterSource(cluster, history, access, recorded);
      const job = await deps.jobs.start(source, params.workspaceId, {
        logLines: body?.logLines ?? DEFAULT_SNAPSHOT_LOG_LINES,
        logs: body?.logs ?? 'all',
        ...(kinds ? { kinds } : {}),
        // Who may download it under `--authorize rbac` without reading everything (requireWholeRead).
        taker: ctx.principal.accountId,
      });
      return { data: job, status: 202, headers: { Location: `/v1/snapshots/${job.snapshotId}` } };
    },

    getSnapshot: async ({ params }, ctx) => ({
      data: await visibleJob(deps, params.snapshotId, ctx.principal),
    }),

    downloadSnapshot: async ({ params }, ctx) => {
      const job = await visibleJob(deps, params.snapshotId, ctx.principal);
      await requireWholeRead(deps, job, ctx.principal);
      if (job.status === 'running')
        throw new ProblemError('conflict', 'the snapshot is still being taken; download it once it is done', {
          snapshotId: job.snapshotId,
          jobStatus: job.status,
        });
      const file = await deps.jobs.file(job.snapshotId);
      if (job.status === 'failed' || !file)
        throw new ProblemError(
          'conflict',
          `the snapshot failed and has no file: ${job.error ?? 'no reason given'}`,
          {
            snapshotId: job.snapshotId,
            jobStatus: job.status,
          },
        );
      // Opened now, so a job forgotten a moment later still downloads whole; gone already is a 404.
      const handle = await open(file.path, 'r').catch(() => {
        throw notFound(job.snapshotId);
      });
      const body: StreamBody<Uint8Array> = {
        contentType: ctx.mediaType ?? SNAPSHOT_MEDIA_TYPE,
        chunks: handle.createReadStream({ highWaterMark: 256 * 1024, autoClose: true }),
        length: file.sizeBytes,
        fileName: file.fileName,
      };
      return { data: body };
    },

    openSnapshot: openSnapshotHandler(deps.registry, deps.opener),
    closeSnapshot: closeSnapshotHandler(deps.registry, deps.opener),
  };
}
