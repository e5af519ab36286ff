import { useEffect, useState } from 'react';
import type { KeptRunRecord } from '../../../src-shared/contract/kept-log-operations';
import { keptRuns, keptRunText } from '../../api/kept-logs';
import type { Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { Badge } from '../common/Badge';
import { ProblemNotice } from '../common/Problem';
import './kept-runs.css';

/**
 * "Earlier runs kept by Skiff" (issue 27 §3): the ended runs of a pod's containers whose last lines
 * Skiff kept, newest first, each opened to read its lines. Shown beside a pod's live logs and in
 * place of them once the pod is gone. Rules: the list refreshes on its own (a crash just kept
 * appears); a run opened stays open while the list refreshes; nothing is shown while none is kept.
 */

const REFRESH_MS = 10_000;

const runId = (r: KeptRunRecord) => `${r.podUid}/${r.container}/${r.restartCount}`;

function ended(r: KeptRunRecord): string {
  const exit = r.exitCode === null ? '' : ` (exit ${r.exitCode})`;
  return `${r.reason}${exit}`;
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function KeptRuns({ scope, namespace, pod }: { scope: Scope; namespace: string; pod: string }) {
  const target = { namespace, pod };
  const list = usePolling(
    `${scope.workspaceId}/${scope.clusterId}/${namespace}/${pod}/kept`,
    (signal) => keptRuns(api(), scope, target, signal),
    { intervalMs: REFRESH_MS },
  );
  const [open, setOpen] = useState<string | null>(null);
  const runs = list.data ?? [];
  if (list.error) return <ProblemNotice error={list.error} what="the logs Skiff kept" />;
  if (runs.length === 0) return null;
  const shown = runs.find((r) => runId(r) === open);
  return (
    <section className="kept-runs" aria-labelledby="kept-runs-title" data-testid="kept-runs">
      <h3 id="kept-runs-title" className="kept-runs-title">
        Earlier runs kept by Skiff
      </h3>
      <ul className="kept-runs-list">
        {runs.map((r) => {
          const id = runId(r);
          const failed = r.exitCode !== 0 && r.reason !== 'Completed';
          return (
            <li key={id}>
              <button
                type="button"
                className="kept-run"
                aria-pressed={open === id}
                data-testid="kept-run"
                onClick={() => setOpen(open === id ? null : id)}
              >
                <span className="kept-run-container">{r.container}</span>
                <span className="muted">run {r.restartCount}</span>
                <Badge tone={failed ? 'bad' : 'neutral'}>{ended(r)}</Badge>
                <span className="muted">ended {when(r.finishedAt)}</span>
                <span className="muted">
                  {r.lines} line{r.lines === 1 ? '' : 's'}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {shown && <KeptRunLines scope={scope} target={target} run={shown} />}
    </section>
  );
}

function KeptRunLines({
  scope,
  target,
  run,
}: {
  scope: Scope;
  target: { namespace: string; pod: string };
  run: KeptRunRecord;
}) {
  const [state, setState] = useState<{ text?: string; error?: unknown }>({});
  const { namespace, pod } = target;
  const { container, restartCount, podUid } = run;
  useEffect(() => {
    const abort = new AbortController();
    setState({});
    keptRunText(
      scope,
      { namespace, pod },
      { container, restartCount, podUid },
      { signal: abort.signal },
    ).then(
      (text) => setState({ text }),
      (error: unknown) => {
        if (!abort.signal.aborted) setState({ error });
      },
    );
    return () => abort.abort();
  }, [scope, namespace, pod, container, restartCount, podUid]);
  const label = `Kept log of ${container}, run ${restartCount}`;
  if (state.error) return <ProblemNotice error={state.error} what={label} retrying={false} />;
  return (
    <section className="kept-run-lines-box" aria-label={label}>
      <pre
        id="kept-run-lines"
        className="kept-run-lines"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        data-testid="kept-run-lines"
      >
        {state.text === undefined ? 'Loading…' : state.text === '' ? '(no lines were written)' : state.text}
      </pre>
    </section>
  );
}
