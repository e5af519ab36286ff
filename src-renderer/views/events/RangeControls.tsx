import { type FormEvent, useEffect, useId, useState } from 'react';
import { timestamp } from '../../kube/format';
import {
  describeRange,
  isEmptyRange,
  PRESETS,
  rangeFromInputs,
  type TimeRange,
  toLocalInput,
} from './history-range';

/**
 * The range without a mouse: presets, two datetime inputs applied together, and a reset. The
 * range in words sits first, so it reads the same whichever way it was set (drag, preset, typing).
 * On a snapshot (`takenAt`) the presets count back from when it was taken, and say so.
 */
export function RangeControls({
  range,
  onChange,
  takenAt,
}: {
  range: TimeRange;
  onChange: (r: TimeRange) => void;
  takenAt?: string | undefined;
}) {
  const ids = { from: useId(), until: useId(), err: useId() };
  const [from, setFrom] = useState(toLocalInput(range.since));
  const [until, setUntil] = useState(toLocalInput(range.until));
  const [error, setError] = useState<string | null>(null);
  // A drag or a preset changes the range from outside: the inputs show what is now in force.
  useEffect(() => {
    setFrom(toLocalInput(range.since));
    setUntil(toLocalInput(range.until));
    setError(null);
  }, [range.since, range.until]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const r = rangeFromInputs(from, until);
    if ('error' in r) {
      setError(r.error);
      return;
    }
    setError(null);
    onChange(r.range);
  };
  return (
    <div className="range-controls">
      <p className="range-text" data-testid="event-range" aria-live="polite">
        <span className="muted">Range:</span> {describeRange(range, timestamp, takenAt)}
      </p>
      <fieldset className="range-presets">
        <legend className="sr-only">Preset ranges</legend>
        {PRESETS.map((p) => (
          <button
            key={p.value}
            type="button"
            aria-pressed={range.since === p.value && range.until === null}
            title={`Events of ${p.text}${takenAt ? ` before the snapshot (taken ${timestamp(takenAt)})` : ''}`}
            onClick={() => onChange({ since: p.value, until: null })}
          >
            {p.label}
          </button>
        ))}
      </fieldset>
      <form className="range-form" onSubmit={apply} aria-label="Time range">
        <div className="field">
          <label htmlFor={ids.from}>From</label>
          <input
            id={ids.from}
            type="datetime-local"
            step={1}
            value={from}
            aria-invalid={error !== null}
            aria-describedby={error ? ids.err : undefined}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.until}>Until</label>
          <input
            id={ids.until}
            type="datetime-local"
            step={1}
            value={until}
            aria-invalid={error !== null}
            aria-describedby={error ? ids.err : undefined}
            onChange={(e) => setUntil(e.target.value)}
          />
        </div>
        <button type="submit">Apply range</button>
        <button
          type="button"
          disabled={isEmptyRange(range)}
          onClick={() => onChange({ since: null, until: null })}
        >
          Reset range
        </button>
        {error && (
          <p id={ids.err} className="field-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </div>
  );
}
