import { conditionSummary } from '../../../kube/conditions';
import type { KindEntry } from '../../../kube/kind-catalog';
import { Badge } from '../../common/Badge';
import type { KindColumn, Row } from '../columns';
import { cellOf, compileColumns } from './printer-cells';

/**
 * The columns of a kind without a folder of its own: a Status from its Ready/Available condition
 * (only when some object listed has one, so a ConfigMap list has no column of dashes), then its
 * CRD's printer columns. One array per kind and shape, so the table does not redo its rows on
 * every refresh.
 */

const statusColumn: KindColumn = {
  id: 'status',
  header: 'Status',
  width: 'minmax(8rem, 1.2fr)',
  value: (r) => conditionSummary(r.resource)?.text ?? '',
  title: (r) => {
    const s = conditionSummary(r.resource);
    return s ? [s.text, s.message].filter(Boolean).join(': ') : '';
  },
  render: (r) => {
    const s = conditionSummary(r.resource);
    return s ? <Badge tone={s.tone}>{s.text}</Badge> : <span className="muted">—</span>;
  },
};

function printerColumns(entry: KindEntry): KindColumn[] {
  return compileColumns(entry.columns).map((c) => ({
    id: c.id,
    header: c.column.name,
    width: c.column.type === 'string' ? 'minmax(7rem, 1fr)' : '6rem',
    ...(c.column.type === 'integer' || c.column.type === 'number' ? { align: 'end' as const } : {}),
    value: (r: Row) => cellOf(c, r.resource).sort,
    render: (r: Row) => cellOf(c, r.resource).text,
    title: (r: Row) => (c.error ? `${c.column.jsonPath}: ${c.error}` : cellOf(c, r.resource).text),
  }));
}

const cache = new WeakMap<KindEntry, Map<boolean, KindColumn[]>>();

export function hasConditionStatus(rows: readonly Row[]): boolean {
  return rows.some((r) => conditionSummary(r.resource) !== undefined);
}

export function genericColumns(entry: KindEntry, rows: readonly Row[]): KindColumn[] {
  const withStatus = hasConditionStatus(rows);
  const byShape = cache.get(entry) ?? new Map<boolean, KindColumn[]>();
  cache.set(entry, byShape);
  const known = byShape.get(withStatus);
  if (known) return known;
  const columns = [...(withStatus ? [statusColumn] : []), ...printerColumns(entry)];
  byShape.set(withStatus, columns);
  return columns;
}
