import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LogResourceType } from '../../../src-shared/contract/log-models';
import { compileSearch, findMatches, type LevelSet } from '../../../src-shared/logs/index';
import { LOG_LEVELS } from '../../../src-shared/logs/types';
import type { LogTarget } from '../../api/log-stream';
import { useDebounced } from '../../hooks/useDebounced';
import { useClusters } from '../../state/clusters';
import { ProblemNotice } from '../common/Problem';
import { usePalette } from '../palette/CommandPalette';
import { type BufferClient, createBufferClient } from './buffer-client';
import { type FilterState, INITIAL_FILTER, LogFilterBar } from './LogFilterBar';
import { LogScrollbar } from './LogScrollbar';
import { LogToolbar } from './LogToolbar';
import { displayText } from './layout';
import type { ViewSpec, ViewStats } from './model';
import { type ScrollState, TerminalView } from './terminal-view';
import { useContainers } from './useContainers';
import { useFrameState } from './useFrameState';
import { EMPTY_STATS, type StreamStatus, useLogStream } from './useLogStream';
import './logs.css';

export interface LogViewerProps {
  workspaceId: string;
  clusterId: string;
  namespace: string;
  /** A pod's logs… */
  pod?: string;
  /** …or those of every pod of a workload, merged by time and tagged with their pod. */
  workload?: { kind: Exclude<LogResourceType, 'pod'>; name: string };
  /** Initial container (default: the pod's default container). */
  container?: string;
  /** Open on the previous (terminated) run, as guidance's "check the previous logs" asks. */
  previous?: boolean;
}

const DEFAULT_TAIL = 10_000;

const STATUS_TEXT: Record<StreamStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  loading: 'Loading…',
  ended: 'Complete',
  error: 'Stopped',
};

/** The view the filters ask for; a search that does not compile is left out (its error is shown). */
function specOf(f: FilterState, pattern: string): ViewSpec {
  const allLevels = LOG_LEVELS.every((l) => f.levels[l]);
  const search = { pattern, regex: f.regex, caseSensitive: f.caseSensitive };
  const searchable = pattern !== '' && compileSearch(search).ok;
  const from = f.from ? new Date(f.from).getTime() : undefined;
  const until = f.to ? new Date(f.to).getTime() + 999 : undefined;
  return {
    ...(allLevels ? {} : { levels: { ...f.levels } as LevelSet }),
    ...(from !== undefined && !Number.isNaN(from) ? { from } : {}),
    ...(until !== undefined && !Number.isNaN(until) ? { until } : {}),
    ...(searchable ? { search } : {}),
    context: searchable ? f.context : 0,
  };
}

/** One buffer worker per mounted viewer, created in an effect so StrictMode's remount gets a live one. */
function useBuffer(): BufferClient | null {
  const [buffer, setBuffer] = useState<BufferClient | null>(null);
  useEffect(() => {
    const created = createBufferClient();
    setBuffer(created);
    return () => created.dispose();
  }, []);
  return buffer;
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * Container logs in a terminal: live tail, previous run, levels, time range, search with
 * context, and downloads. Lines live in a worker (see log-buffer.ts); the terminal draws one
 * screen of the filtered view at a time (see terminal-view.ts).
 */
export function LogViewer(props: LogViewerProps) {
  const { workspaceId, clusterId, namespace, pod, workload } = props;
  const target: LogTarget = useMemo(
    () => ({
      workspaceId,
      clusterId,
      namespace,
      resourceType: workload?.kind ?? 'pod',
      name: workload?.name ?? pod ?? '',
    }),
    [workspaceId, clusterId, namespace, pod, workload?.kind, workload?.name],
  );
  const containers = useContainers(target);
  const snapshot = useClusters((s) =>
    s.clusters.some((c) => c.clusterId === clusterId && c.status === 'snapshot'),
  );
  const [container, setContainer] = useState(props.container);
  const [previous, setPrevious] = useState(props.previous ?? false);
  useEffect(() => setContainer(props.container), [props.container]);
  useEffect(() => setPrevious(props.previous ?? false), [props.previous]);
  const [follow, setFollow] = useState(true);
  const [tail, setTail] = useState<number | undefined>(DEFAULT_TAIL);
  // null until the person chooses; until then, logs holding JSON or logfmt lines wrap (see `wrap`).
  const [wrapChoice, setWrap] = useState<boolean | null>(null);
  const [timestamps, setTimestamps] = useState(false);
  const [filter, setFilter] = useState<FilterState>(INITIAL_FILTER);
  const [generation, setGeneration] = useState(0);
  const [expanded, setExpanded] = useState(false);
  const [current, setCurrent] = useState({ k: -1, row: -1 });
  const [stats, setStats] = useFrameState<ViewStats>(EMPTY_STATS);
  const [scroll, setScroll] = useFrameState<ScrollState>({
    top: 0,
    total: 0,
    screenRows: 0,
    following: true,
  });

  const buffer = useBuffer();
  const term = useRef<TerminalView | null>(null);
  const host = useRef<HTMLDivElement>(null);

  const onStats = useCallback(
    (s: ViewStats) => {
      term.current?.setTotal(s.rows);
      setStats(s);
    },
    [setStats],
  );
  const chosen = container ?? containers.find((c) => !c.init)?.name;
  const { status, error } = useLogStream(
    target,
    {
      ...(container ? { container } : {}),
      previous,
      follow,
      ...(tail !== undefined ? { tailLines: tail } : {}),
    },
    buffer,
    onStats,
    generation,
  );

  useEffect(() => {
    if (!host.current || !buffer) return;
    const view = new TerminalView(host.current, buffer, setScroll);
    term.current = view;
    return () => {
      view.dispose();
      term.current = null;
    };
  }, [buffer, setScroll]);

  // Typing a pattern filters after a pause, not on every key.
  const pattern = useDebounced(filter.pattern, 150);
  const spec = useMemo(() => specOf(filter, pattern), [filter, pattern]);
  useEffect(() => {
    setCurrent({ k: -1, row: -1 });
    void buffer?.setView(spec).then(onStats);
  }, [buffer, spec, onStats]);

  const compiled = useMemo(
    () =>
      pattern ? compileSearch({ pattern, regex: filter.regex, caseSensitive: filter.caseSensitive }) : null,
    [pattern, filter.regex, filter.caseSensitive],
  );
  const search = compiled?.ok ? compiled.search : null;
  const viewError = compiled && !compiled.ok ? compiled.error : stats.error;
  // Structured lines are long and their end (the fields) is what matters: cut at the pane's edge
  // they say nothing, so they wrap unless the person turned wrapping off.
  const wrap = wrapChoice ?? stats.structured > 0;
  useEffect(() => {
    term.current?.setDisplay({ wrap, timestamps, search, currentRow: current.row });
  }, [wrap, timestamps, search, current.row]);

  const step = async (dir: 1 | -1) => {
    if (!buffer || stats.matches === 0) return;
    const from =
      current.k >= 0 ? current.row + dir : dir === 1 ? scroll.top : scroll.top + scroll.screenRows - 1;
    let k = await buffer.matchNear(from, dir);
    if (k < 0) k = dir === 1 ? 0 : stats.matches - 1;
    const row = await buffer.matchRow(k);
    if (row < 0) return;
    setCurrent({ k, row });
    // Bring the match itself into view, not only its line: long lines are cut without wrap.
    const [shown] = await buffer.rowsAt(row, 1);
    const at = shown && search ? (findMatches(displayText(shown.text), search)[0]?.[0] ?? 0) : 0;
    const prefix =
      (timestamps && shown?.ts !== undefined ? 24 : 0) + (shown?.source ? shown.source.length + 3 : 0);
    term.current?.reveal(row, at, prefix);
  };

  const download = async (filtered: boolean) => {
    if (!buffer) return;
    const blob = await buffer.exportBlob(filtered, filtered ? timestamps : true);
    const parts = [target.name, chosen, previous ? 'previous' : '', filtered ? 'filtered' : ''].filter(
      Boolean,
    );
    saveBlob(blob, `${parts.join('-')}.log`);
  };

  // Escape leaves full height wherever the focus is: the terminal (whose own key handling would
  // swallow it, hence the capture phase), a control, the page. A palette or dialog above it keeps
  // its Escape. The detail pane's Escape stands aside (escapeCloses.ts: the key is taken).
  useEffect(() => {
    if (!expanded) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || usePalette.getState().open) return;
      if (document.querySelector('dialog[open], [aria-modal="true"]')) return;
      e.preventDefault();
      setExpanded(false);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [expanded]);

  const below = Math.max(0, scroll.total - scroll.top - scroll.screenRows);
  return (
    <section
      className={`log-viewer ${expanded ? 'log-viewer-expanded' : ''}`}
      data-testid="log-viewer"
      aria-label={`Logs of ${target.resourceType} ${target.name}`}
    >
      <LogToolbar
        containers={containers}
        container={chosen}
        onContainer={setContainer}
        previous={previous}
        onPrevious={setPrevious}
        follow={follow}
        onFollow={setFollow}
        tail={tail}
        onTail={setTail}
        following={scroll.following}
        onPauseResume={() => (scroll.following ? term.current?.pause() : term.current?.follow())}
        below={below}
        wrap={wrap}
        onWrap={setWrap}
        timestamps={timestamps}
        onTimestamps={setTimestamps}
        onClear={() => void buffer?.clear().then(onStats)}
        onDownload={(filtered) => void download(filtered)}
        expanded={expanded}
        onExpand={setExpanded}
        fixed={snapshot}
      />
      <LogFilterBar
        filter={filter}
        onChange={setFilter}
        matches={stats.matches}
        current={current.k}
        searching={stats.searching}
        {...(viewError ? { error: viewError } : {})}
        onStep={(dir) => void step(dir)}
      />
      {status === 'error' && (
        <ProblemNotice error={error} what="the log" retrying={false}>
          <button type="button" onClick={() => setGeneration((g) => g + 1)}>
            Try again
          </button>
        </ProblemNotice>
      )}
      <div className="log-screen">
        <div id="log-terminal" className="log-terminal" data-testid="log-terminal" ref={host} />
        <LogScrollbar
          top={scroll.top}
          total={scroll.total}
          screenRows={scroll.screenRows}
          onScrollTo={(row) => term.current?.scrollTo(row)}
        />
      </div>
      <footer className="log-status" data-testid="log-status">
        <span data-testid="log-stream-status" className={`log-stream-${status}`}>
          {STATUS_TEXT[status]}
        </span>
        <span>{stats.total.toLocaleString()} lines</span>
        {stats.rows !== stats.total && <span>{stats.rows.toLocaleString()} shown</span>}
        {stats.dropped > 0 && <span>{stats.dropped.toLocaleString()} oldest dropped</span>}
        {stats.streamError && <span className="log-status-error">{stats.streamError}</span>}
        {(status === 'ended' || status === 'error') && (
          <button type="button" className="link" onClick={() => setGeneration((g) => g + 1)}>
            Reload
          </button>
        )}
        {buffer && !buffer.offThread && <span title="Web Workers are unavailable here">in-page buffer</span>}
      </footer>
    </section>
  );
}
