import {
  describeAction,
  fillPlaceholders,
  type GuidanceAction,
  type GuidanceCheck,
  type GuidanceEntry,
  type PlaceholderValues,
} from '../../../src-shared/guidance';
import { RefLink } from '../resources/related/RefLink';
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
 * with a button that opens the data answering it. `steps` are checks about this very object (the
 * ConfigMap its message names), listed first; a step that names an object links to it, marked
 * missing when it does not exist.
 */
export function GuidanceCard({
  entry,
  values,
  container,
  headingLevel = 4,
  open = true,
  steps = [],
}: {
  entry: GuidanceEntry;
  steps?: readonly GuidanceCheck[];
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
      {steps.length + entry.checks.length > 0 && (
        <>
          <p className="guidance-label">Check first</p>
          <ol className="guidance-checks">
            {[...steps, ...entry.checks].map((c) => (
              <li key={c.text} data-ref={c.ref ? 'true' : undefined}>
                <span>{renderCheck(fillPlaceholders(c.text, values))}</span>
                {c.ref && <RefLink refTo={c.ref} />}
                {c.action && <ActionButton action={c.action} {...(container ? { container } : {})} />}
              </li>
            ))}
          </ol>
        </>
      )}
    </details>
  );
}

/** Steps that name objects, without an entry around them: each object as a link, marked when missing. */
export function StepLinks({ steps }: { steps: readonly GuidanceCheck[] }) {
  return (
    <ul className="guidance-checks step-links">
      {steps.map((c) => (
        <li key={c.text}>
          <span>{c.text}</span> {c.ref && <RefLink refTo={c.ref} />}
        </li>
      ))}
    </ul>
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
