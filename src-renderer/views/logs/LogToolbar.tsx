import type { ContainerChoice } from './useContainers';

export const TAIL_CHOICES: { label: string; value: number | undefined }[] = [
  { label: 'Last 1,000 lines', value: 1_000 },
  { label: 'Last 10,000 lines', value: 10_000 },
  { label: 'Last 100,000 lines', value: 100_000 },
  { label: 'All lines', value: undefined },
];

interface Props {
  containers: readonly ContainerChoice[];
  container: string | undefined;
  onContainer(name: string): void;
  previous: boolean;
  onPrevious(on: boolean): void;
  follow: boolean;
  onFollow(on: boolean): void;
  tail: number | undefined;
  onTail(tail: number | undefined): void;
  following: boolean;
  onPauseResume(): void;
  /** View rows below the screen while paused. */
  below: number;
  wrap: boolean;
  onWrap(on: boolean): void;
  timestamps: boolean;
  onTimestamps(on: boolean): void;
  onClear(): void;
  onDownload(filtered: boolean): void;
  expanded: boolean;
  onExpand(on: boolean): void;
  /** A snapshot's logs: nothing more will be written, so there is nothing to follow or pause. */
  fixed?: boolean;
}

/**
 * What is streamed (container, run, follow, history) and how it is shown (pause, wrap, time), in
 * one row that scrolls sideways when the pane is narrow (logs.css): rows of controls stacked above
 * the terminal left it a third of the pane. Full height comes first, so it is in sight at any width.
 */
export function LogToolbar(p: Props) {
  return (
    <div className="log-toolbar">
      <button
        type="button"
        className="log-expand"
        data-testid="log-expand"
        aria-pressed={p.expanded}
        title={p.expanded ? 'Back into the pane (Esc)' : 'Show the logs at full height'}
        onClick={() => p.onExpand(!p.expanded)}
      >
        {p.expanded ? 'Back to pane' : 'Full height'}
      </button>
      {p.containers.length > 0 && (
        <label>
          Container{' '}
          <select
            data-testid="log-container"
            value={p.container ?? ''}
            onChange={(e) => p.onContainer(e.target.value)}
          >
            {p.containers.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
                {c.init ? ' (init)' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <label title="The last terminated instance of the container (kubectl logs --previous)">
        <input
          type="checkbox"
          data-testid="log-previous"
          checked={p.previous}
          onChange={(e) => p.onPrevious(e.target.checked)}
        />{' '}
        Previous run
      </label>
      {!p.fixed && (
        <label title="Keep the stream open and show new lines as they are written">
          <input
            type="checkbox"
            data-testid="log-follow"
            checked={p.follow && !p.previous}
            disabled={p.previous}
            onChange={(e) => p.onFollow(e.target.checked)}
          />{' '}
          Follow
        </label>
      )}
      <select
        aria-label="History"
        data-testid="log-tail"
        value={String(p.tail ?? 'all')}
        onChange={(e) => p.onTail(e.target.value === 'all' ? undefined : Number(e.target.value))}
      >
        {TAIL_CHOICES.map((c) => (
          <option key={c.label} value={String(c.value ?? 'all')}>
            {c.label}
          </option>
        ))}
      </select>
      <span className="log-toolbar-gap" />
      {!p.fixed && (
        <button type="button" data-testid="log-pause" aria-pressed={!p.following} onClick={p.onPauseResume}>
          {p.following ? 'Pause' : p.below > 0 ? `Resume (${p.below.toLocaleString()} more)` : 'Resume'}
        </button>
      )}
      <label>
        <input
          type="checkbox"
          data-testid="log-wrap"
          checked={p.wrap}
          onChange={(e) => p.onWrap(e.target.checked)}
        />{' '}
        Wrap
      </label>
      <label>
        <input
          type="checkbox"
          data-testid="log-timestamps"
          checked={p.timestamps}
          onChange={(e) => p.onTimestamps(e.target.checked)}
        />{' '}
        Timestamps
      </label>
      <button
        type="button"
        data-testid="log-clear"
        title="Forget the lines received so far"
        onClick={p.onClear}
      >
        Clear
      </button>
      <button
        type="button"
        data-testid="log-download-view"
        title="Download what the filters show"
        onClick={() => p.onDownload(true)}
      >
        Download view
      </button>
      <button
        type="button"
        data-testid="log-download-all"
        title="Download every line received"
        onClick={() => p.onDownload(false)}
      >
        Download all
      </button>
    </div>
  );
}
