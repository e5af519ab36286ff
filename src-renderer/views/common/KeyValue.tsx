import type { ReactNode } from 'react';

export type Pair = [label: string, value: ReactNode];

/** A description list; rows whose value is null/undefined are left out rather than shown empty. */
export function KeyValue({ pairs, className }: { pairs: Pair[]; className?: string }) {
  const shown = pairs.filter(([, v]) => v !== null && v !== undefined && v !== '');
  return (
    <dl className={`kv ${className ?? ''}`}>
      {shown.map(([k, v]) => (
        <div className="kv-row" key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Labels({ labels }: { labels: Record<string, string> | undefined }) {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="chips" aria-label="labels">
      {entries.map(([k, v]) => (
        <li key={k} className="chip">
          {k}={v}
        </li>
      ))}
    </ul>
  );
}
