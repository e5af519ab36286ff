import type { ReactNode } from 'react';

/**
 * Any part of a manifest in a readable form: an object as a list of its keys, a list of plain
 * values on one line, a list of objects as numbered items, text as text. Unlike the YAML it needs
 * no scrolling past braces to find a field. Bounded: past MAX_DEPTH levels or MAX_NODES values the
 * rest is left to the YAML tab, so a huge status cannot stall the pane.
 */

export const MAX_DEPTH = 8;
export const MAX_NODES = 2000;

interface Budget {
  left: number;
}

const isPlain = (v: unknown) => v === null || typeof v !== 'object';

function scalar(v: unknown): ReactNode {
  if (v === null) return <span className="muted">null</span>;
  if (typeof v === 'string') {
    if (v === '') return <span className="muted">""</span>;
    return v.includes('\n') ? <pre className="tree-text">{v}</pre> : v;
  }
  return <code>{String(v)}</code>;
}

function node(v: unknown, depth: number, budget: Budget): ReactNode {
  budget.left--;
  if (isPlain(v)) return scalar(v);
  if (depth >= MAX_DEPTH || budget.left <= 0) return <span className="muted">… (see the YAML tab)</span>;
  if (Array.isArray(v)) {
    if (v.length === 0) return <span className="muted">none</span>;
    if (v.every(isPlain)) {
      budget.left -= v.length;
      return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ');
    }
    return (
      <ol className="tree-list">
        {v.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a manifest's list has no other identity
          <li key={i}>{node(item, depth + 1, budget)}</li>
        ))}
      </ol>
    );
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 0) return <span className="muted">empty</span>;
  return (
    <dl className="kv tree-kv">
      {entries.map(([k, x]) => (
        <div className="kv-row" key={k}>
          <dt>{k}</dt>
          <dd>{node(x, depth + 1, budget)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ObjectTree({ value }: { value: unknown }) {
  return <div className="object-tree">{node(value, 0, { left: MAX_NODES })}</div>;
}
