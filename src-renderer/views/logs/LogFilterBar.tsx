import { LOG_LEVELS, type LogLevel } from '../../../src-shared/logs/types';

export interface FilterState {
  levels: Record<LogLevel, boolean>;
  /** datetime-local values (local time), '' when unset. */
  from: string;
  to: string;
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  context: number;
}

export const ALL_LEVELS: Record<LogLevel, boolean> = {
  ERROR: true,
  WARN: true,
  INFO: true,
  DEBUG: true,
  TRACE: true,
  UNKNOWN: true,
};

export const INITIAL_FILTER: FilterState = {
  levels: ALL_LEVELS,
  from: '',
  to: '',
  pattern: '',
  regex: false,
  caseSensitive: false,
  context: 0,
};

interface Props {
  filter: FilterState;
  onChange(next: FilterState): void;
  /** Matches in the view, and the 0-based index of the current one (-1: none chosen). */
  matches: number;
  current: number;
  searching: boolean;
  error?: string;
  onStep(dir: 1 | -1): void;
}

const LEVEL_LABEL: Record<LogLevel, string> = {
  ERROR: 'Error',
  WARN: 'Warn',
  INFO: 'Info',
  DEBUG: 'Debug',
  TRACE: 'Trace',
  UNKNOWN: 'No level',
};

/** Level, time range, search and context: all of it filters the buffer, nothing is fetched again. */
export function LogFilterBar({ filter, onChange, matches, current, searching, error, onStep }: Props) {
  const set = (patch: Partial<FilterState>) => onChange({ ...filter, ...patch });
  return (
    <div className="log-filters">
      <fieldset className="log-levels" aria-label="Levels">
        {LOG_LEVELS.map((level) => (
          <label key={level} className={`log-level log-level-${level.toLowerCase()}`}>
            <input
              type="checkbox"
              data-testid={`log-level-${level}`}
              checked={filter.levels[level]}
              onChange={(e) => set({ levels: { ...filter.levels, [level]: e.target.checked } })}
            />
            {LEVEL_LABEL[level]}
          </label>
        ))}
      </fieldset>
      <div className="log-range">
        <label>
          From{' '}
          <input
            type="datetime-local"
            step={1}
            data-testid="log-from"
            value={filter.from}
            onChange={(e) => set({ from: e.target.value })}
          />
        </label>
        <label>
          To{' '}
          <input
            type="datetime-local"
            step={1}
            data-testid="log-to"
            value={filter.to}
            onChange={(e) => set({ to: e.target.value })}
          />
        </label>
        {(filter.from || filter.to) && (
          <button type="button" className="link" onClick={() => set({ from: '', to: '' })}>
            Any time
          </button>
        )}
      </div>
      <search className="log-search">
        <input
          type="search"
          placeholder={filter.regex ? 'Search (regular expression)' : 'Search'}
          aria-label="Search the log"
          data-testid="log-search"
          value={filter.pattern}
          onChange={(e) => set({ pattern: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onStep(e.shiftKey ? -1 : 1);
            }
          }}
        />
        <button
          type="button"
          className={`toggle ${filter.regex ? 'on' : ''}`}
          aria-pressed={filter.regex}
          title="Regular expression"
          data-testid="log-regex"
          onClick={() => set({ regex: !filter.regex })}
        >
          .*
        </button>
        <button
          type="button"
          className={`toggle ${filter.caseSensitive ? 'on' : ''}`}
          aria-pressed={filter.caseSensitive}
          title="Match case"
          data-testid="log-case"
          onClick={() => set({ caseSensitive: !filter.caseSensitive })}
        >
          Aa
        </button>
        <span className="log-match-count" data-testid="log-match-count" aria-live="polite">
          {searching ? `${current >= 0 ? current + 1 : 0} / ${matches}` : ''}
        </span>
        <button
          type="button"
          title="Previous match (Shift+Enter)"
          data-testid="log-prev"
          disabled={matches === 0}
          onClick={() => onStep(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          title="Next match (Enter)"
          data-testid="log-next"
          disabled={matches === 0}
          onClick={() => onStep(1)}
        >
          ↓
        </button>
        <label title="Lines shown around each match, like grep -C">
          Context{' '}
          <input
            type="number"
            min={0}
            max={100}
            className="log-context"
            data-testid="log-context"
            value={filter.context}
            onChange={(e) => set({ context: Math.max(0, Math.min(100, Number(e.target.value) || 0)) })}
          />
        </label>
      </search>
      {error && (
        <p className="log-filter-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
