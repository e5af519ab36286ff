import {
  describeAction,
  fillPlaceholders,
  type GuidanceAction,
  type GuidanceEntry,
  type PlaceholderValues,
} from '../../../src-shared/guidance';
import { useGuidanceActions } from './actions';
import './guidance.css';

export function ActionButton({ action, container }: { action: GuidanceAction; container?: string }) {
  const target = useGuidanceActions();
  if (!target) return null;
  const why = target.unavailable(action);
  const label = describeAction(action);
  return (
    <button
      type="button"
      className="action"
      disabled={why !== null}
      title={why ?? undefined}
      onClick={() => target.run(action, container)}
    >
      {label}
    </button>
  );
}

/**
 * One knowledge-base entry: what it means, the usual causes, and what to check first, each check
 * with a button that opens the data answering it.
 */
export function GuidanceCard({
  entry,
  values,
  container,
  headingLevel = 4,
  open = true,
}: {
  entry: GuidanceEntry;
  values: PlaceholderValues;
  container?: string;
  headingLevel?: 3 | 4 | 5;
  open?: boolean;
}) {
  const H = `h${headingLevel}` as 'h3' | 'h4' | 'h5';
  return (
    <details className={`guidance guidance-${entry.severity}`} open={open} data-guidance={entry.id}>
      <summary>
        <H className="guidance-title">{entry.title}</H>
      </summary>
      <p className="guidance-meaning">{entry.meaning}</p>
      {entry.causes.length > 0 && (
        <>
          <p className="guidance-label">Likely causes</p>
          <ul className="guidance-causes">
            {entry.causes.map((c) => (
              <li key={c}>{fillPlaceholders(c, values)}</li>
            ))}
          </ul>
        </>
      )}
      {entry.checks.length > 0 && (
        <>
          <p className="guidance-label">Check first</p>
          <ol className="guidance-checks">
            {entry.checks.map((c) => (
              <li key={c.text}>
                <span>{renderCheck(fillPlaceholders(c.text, values))}</span>
                {c.action && <ActionButton action={c.action} {...(container ? { container } : {})} />}
              </li>
            ))}
          </ol>
        </>
      )}
    </details>
  );
}

/** Checks quote kubectl commands in backticks; show them as code so they can be copied whole. */
function renderCheck(text: string) {
  const parts = text.split(/(`[^`]+`)/g);
  return parts.map((p, i) =>
    p.startsWith('`') && p.endsWith('`') ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the split is stable for a given text
      <code key={i}>{p.slice(1, -1)}</code>
    ) : (
      p
    ),
  );
}
