import type { ReactNode } from 'react';
import { ApiError, type Syncing, syncingOf } from '../../api';
import { forbiddenOf, forbiddenSentence } from './forbidden';

const CLUSTER_DOWN = new Set([
  'cluster_unreachable',
  'cluster_timeout',
  'cluster_unauthorized',
  'cluster_error',
]);

/** A refusal by the cluster's RBAC reads as what is missing and whom to ask (forbidden.ts). */
export function problemText(err: unknown): string {
  const permission = forbiddenOf(err);
  if (permission) return forbiddenSentence(permission);
  if (err instanceof ApiError) return err.problem.detail || err.problem.title;
  return (err as Error | undefined)?.message ?? String(err);
}

export function isClusterDown(err: unknown): boolean {
  return err instanceof ApiError && CLUSTER_DOWN.has(err.problem.code);
}

/** "12,345 so far", and the cluster's estimate of the rest when it gave one. */
export function syncingText(s: Syncing): string {
  const rest = s.remaining === undefined ? '' : `, about ${s.remaining.toLocaleString()} to go`;
  return `${s.items.toLocaleString()} so far${rest}`;
}

/**
 * An error as the person should read it: the service's problem+json `detail`, and for a cluster
 * that cannot be reached, that it is the cluster (not Skiff) and that Skiff keeps trying. A list
 * still arriving from the cluster (503 cluster_syncing) is no error: it shows as loading, with the
 * count so far (the caller asks again after Retry-After; usePolling does). A refusal by the
 * cluster's RBAC (403 with a `permission`) is no failure to retry either: it says which permission
 * is missing, in words, and that the view fills in once it is granted (the polls go on).
 */
export function ProblemNotice({
  error,
  what,
  retrying = true,
  children,
}: {
  error: unknown;
  /** What was being loaded, e.g. "pods". */
  what?: string;
  retrying?: boolean;
  children?: ReactNode;
}) {
  const syncing = syncingOf(error);
  if (syncing) {
    return <Loading label={`Loading ${what ?? 'the list'} from the cluster… ${syncingText(syncing)}`} />;
  }
  const permission = forbiddenOf(error);
  if (permission) {
    return (
      <div className="notice notice-warn" role="alert" data-testid="forbidden">
        <strong>You don't have permission to see {what ?? 'this'}</strong>
        <p>{forbiddenSentence(permission)}</p>
        {retrying && <p className="muted">This fills in by itself once the permission is granted.</p>}
        {children}
      </div>
    );
  }
  const down = isClusterDown(error);
  const title = down
    ? 'The cluster cannot be reached'
    : error instanceof ApiError && error.problem.status === 0
      ? 'The Skiff service is not answering'
      : `Could not load${what ? ` ${what}` : ''}`;
  return (
    <div className={`notice ${down ? 'notice-warn' : 'notice-error'}`} role="alert">
      <strong>{title}</strong>
      <p>{problemText(error)}</p>
      {retrying && <p className="muted">Skiff retries by itself; this clears when the answer comes back.</p>}
      {children}
    </div>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}
