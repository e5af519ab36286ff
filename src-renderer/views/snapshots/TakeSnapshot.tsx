import { useId, useState } from 'react';
import type { Cluster } from '../../../src-shared/contract/models';
import {
  type CaptureOptions,
  DEFAULT_CAPTURE,
  MAX_SNAPSHOT_LOG_LINES,
  useSnapshots,
  type WhoseLogs,
} from '../../state/snapshots';
import { Dialog } from '../common/Dialog';
import { SnapshotProgress } from './SnapshotProgress';
import './snapshots.css';

const WHOSE: Array<{ value: WhoseLogs; label: string }> = [
  { value: 'all', label: 'Every pod' },
  { value: 'failing', label: 'Failing pods only' },
  { value: 'none', label: 'None' },
];

function validLines(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  return n <= MAX_SNAPSHOT_LOG_LINES ? n : null;
}

/** What to capture: how many log lines per container, and whose. */
function CaptureForm({
  lines,
  setLines,
  logs,
  setLogs,
}: {
  lines: string;
  setLines: (v: string) => void;
  logs: WhoseLogs;
  setLogs: (v: WhoseLogs) => void;
}) {
  const linesId = useId();
  const hintId = useId();
  const invalid = validLines(lines) === null;
  return (
    <div className="snapshot-form">
      <p>
        Everything Skiff shows for this cluster goes into one <code>.skiff</code> file: objects, events with
        their history, container logs and metrics. Secrets are never taken.
      </p>
      <fieldset className="plain-fieldset">
        <legend>Whose logs</legend>
        {WHOSE.map((w) => (
          <label key={w.value} className="snapshot-choice">
            <input
              type="radio"
              name="snapshot-logs"
              value={w.value}
              checked={logs === w.value}
              onChange={() => setLogs(w.value)}
            />{' '}
            {w.label}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={linesId}>Log lines per container</label>
        <input
          id={linesId}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_SNAPSHOT_LOG_LINES}
          value={lines}
          disabled={logs === 'none'}
          aria-invalid={logs !== 'none' && invalid}
          aria-describedby={hintId}
          onChange={(e) => setLines(e.target.value)}
        />
        <span id={hintId} className={logs !== 'none' && invalid ? 'field-error' : 'muted'}>
          A whole number from 0 to {MAX_SNAPSHOT_LOG_LINES.toLocaleString()}; a restarted container's previous
          run gets as many.
        </span>
      </div>
    </div>
  );
}

/**
 * "Take snapshot" for a live cluster: options, then the capture's progress, then the file. The
 * capture goes on if the dialog is closed; the button then says so and reopens it.
 */
export function TakeSnapshot({ workspaceId, cluster }: { workspaceId: string; cluster: Cluster }) {
  const [open, setOpen] = useState(false);
  const [lines, setLines] = useState(String(DEFAULT_CAPTURE.logLines));
  const [logs, setLogs] = useState<WhoseLogs>(DEFAULT_CAPTURE.logs);
  const s = useSnapshots();
  const running = s.starting || s.job?.status === 'running';
  const showing = s.job !== null || s.starting;
  const desktop = typeof window !== 'undefined' && window.skiffSnapshots !== undefined;
  const parsed = validLines(lines);
  const options: CaptureOptions | null =
    logs === 'none' ? { logLines: 0, logs } : parsed === null ? null : { logLines: parsed, logs };

  const start = () => {
    if (options) void s.startCapture(workspaceId, cluster.clusterId, options);
  };

  return (
    <>
      <button type="button" className="snapshot-take" onClick={() => setOpen(true)}>
        {running ? 'Snapshot in progress…' : 'Take snapshot'}
      </button>
      <Dialog
        open={open}
        title={`Snapshot of ${showing && s.job ? s.job.context : cluster.context}`}
        onClose={() => setOpen(false)}
        actions={
          showing ? (
            <>
              {!running && (
                <button type="button" onClick={s.resetCapture}>
                  New snapshot
                </button>
              )}
              <button type="button" onClick={() => setOpen(false)}>
                Close
              </button>
            </>
          ) : (
            <>
              <button type="button" onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button type="button" className="primary" onClick={start} disabled={options === null}>
                Start
              </button>
            </>
          )
        }
      >
        {showing ? (
          s.job ? (
            <SnapshotProgress
              job={s.job}
              saveLabel={desktop ? 'Save snapshot…' : 'Download snapshot'}
              onSave={() => void s.saveFile()}
              saving={s.saving}
              savedTo={s.savedTo}
              saveError={s.saveError}
            />
          ) : (
            <p aria-live="polite">Starting…</p>
          )
        ) : (
          <CaptureForm lines={lines} setLines={setLines} logs={logs} setLogs={setLogs} />
        )}
        {s.captureError && (
          <p className="notice notice-error" role="alert">
            {s.job ? s.captureError : `The snapshot could not be started: ${s.captureError}`}
          </p>
        )}
      </Dialog>
    </>
  );
}
