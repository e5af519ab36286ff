import { useId } from 'react';
import type { SnapshotGap, SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { formatBytes, plural } from '../../kube/format';
import './snapshots.css';

const count = (n: number) => n.toLocaleString();
/** 512B, 3.4KiB, 12MiB: formatBytes speaks in Kubernetes quantities (Ki, Mi), files in bytes. */
const fileSize = (n: number) => {
  const s = formatBytes(n);
  return s.endsWith('B') ? s : `${s}B`;
};

function gapText(gap: SnapshotGap): string {
  return `${gap.part}${gap.target ? ` (${gap.target})` : ''}: ${gap.reason}`;
}

/** The parts a capture could not take, named one by one; a snapshot with gaps is still usable. */
function MissingParts({ missing }: { missing: SnapshotGap[] }) {
  const id = useId();
  if (missing.length === 0) return null;
  return (
    <div className="snapshot-missing" data-testid="snapshot-missing">
      <p id={id}>
        <strong>Not in this snapshot</strong> ({plural(missing.length, 'part')}):
      </p>
      <ul aria-labelledby={id}>
        {missing.map((gap, i) => (
          // Gaps have no identity of their own, and the list never reorders.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={i}>{gapText(gap)}</li>
        ))}
      </ul>
    </div>
  );
}

export interface SnapshotProgressProps {
  job: SnapshotJob;
  /** The label of the button that saves the file: a download in a browser, a save dialog on the desktop. */
  saveLabel: string;
  onSave: () => void;
  saving: boolean;
  savedTo: string | null;
  saveError: string | null;
}

/**
 * A capture as it runs: objects and events written, pods whose logs are done out of how many,
 * then the file to save, and whatever could not be taken.
 */
export function SnapshotProgress({
  job,
  saveLabel,
  onSave,
  saving,
  savedTo,
  saveError,
}: SnapshotProgressProps) {
  const labelId = useId();
  const { objects, events, podLogsDone, podLogsTotal } = job.progress;
  const logsKnown = podLogsTotal > 0;
  return (
    <div className="snapshot-progress" data-testid="snapshot-progress" data-status={job.status}>
      <p className="snapshot-progress-status" aria-live="polite">
        {job.status === 'running' && <>Taking a snapshot of {job.context}…</>}
        {job.status === 'done' && (
          <>
            Snapshot of {job.context} ready: <code>{job.fileName}</code>
            {job.sizeBytes !== undefined && <> ({fileSize(job.sizeBytes)})</>}
          </>
        )}
      </p>
      {job.status === 'failed' && (
        <div className="notice notice-error" role="alert">
          <strong>The snapshot failed</strong>
          <p>{job.error ?? 'The service gave no reason.'}</p>
        </div>
      )}
      <dl className="snapshot-counts">
        <div>
          <dt>Objects</dt>
          <dd data-testid="snapshot-objects">{count(objects)}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd data-testid="snapshot-events">{count(events)}</dd>
        </div>
        <div>
          <dt>Pod logs</dt>
          <dd data-testid="snapshot-logs">
            {logsKnown
              ? `${count(podLogsDone)} of ${count(podLogsTotal)}`
              : job.status === 'running'
                ? '…'
                : 'none'}
          </dd>
        </div>
      </dl>
      {job.status === 'running' && (
        <>
          <span id={labelId} className="sr-only">
            {logsKnown ? 'Pod logs taken' : 'Snapshot progress'}
          </span>
          {/* Indeterminate until the number of pods with logs is known. */}
          {logsKnown ? (
            <progress aria-labelledby={labelId} value={podLogsDone} max={podLogsTotal} />
          ) : (
            <progress aria-labelledby={labelId} />
          )}
        </>
      )}
      <MissingParts missing={job.missing} />
      {job.status === 'done' && (
        <div className="snapshot-save">
          <button type="button" className="primary" onClick={onSave} disabled={saving}>
            {saving ? 'Saving…' : saveLabel}
          </button>
          {savedTo && (
            <p className="snapshot-saved" data-testid="snapshot-saved">
              Saved: <code>{savedTo}</code>
            </p>
          )}
          {saveError && (
            <p className="notice notice-error" role="alert">
              The file could not be saved: {saveError}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
