import type { ResourceWrapper } from '../../../src-shared/contract/models';
import { age, time } from '../../kube/format';
import type { Tone } from '../../kube/meta';
import { Badge } from '../common/Badge';
import type { Column } from './tableColumn';

/** Columns every kind has; the kind's own columns go between namespace and age. */

export type Row = ResourceWrapper;
/** `badge`: the column shows its value as a badge, and is as wide as its widest one (badgeWidth.ts). */
export type KindColumn = Column<Row> & { badge?: (r: Row) => string };

export const nameColumn: KindColumn = {
  id: 'name',
  header: 'Name',
  width: 'minmax(14rem, 3fr)',
  value: (r) => r.resource.metadata.name,
  render: (r) => <span className="cell-name">{r.resource.metadata.name}</span>,
};

export const namespaceColumn: KindColumn = {
  id: 'namespace',
  header: 'Namespace',
  width: 'minmax(8rem, 1fr)',
  value: (r) => r.resource.metadata.namespace ?? '',
};

export const ageColumn: KindColumn = {
  id: 'age',
  header: 'Age',
  // "Age ▲" and "999d" fit; a wider track would only take room the name can use.
  width: '4.5rem',
  align: 'end',
  // Newest first when sorted ascending reads oddly; age ascending means youngest first, as in kubectl.
  value: (r) => -time(r.resource.metadata.creationTimestamp),
  render: (r) => (
    <time dateTime={r.resource.metadata.creationTimestamp}>{age(r.resource.metadata.creationTimestamp)}</time>
  ),
};

export function badgeColumn(
  id: string,
  header: string,
  width: string,
  value: (r: Row) => string,
  tone: (v: string) => Tone,
): KindColumn {
  return {
    id,
    header,
    width,
    value,
    badge: value,
    title: value,
    render: (r) => {
      const v = value(r);
      return <Badge tone={tone(v)}>{v}</Badge>;
    },
  };
}

export function numberColumn(
  id: string,
  header: string,
  value: (r: Row) => number,
  width = '6rem',
): KindColumn {
  return { id, header, width, value, align: 'end' };
}

/** "ready/desired", sorted by how far from ready (missing replicas first when ascending). */
export function ratioColumn(
  id: string,
  header: string,
  ratio: (r: Row) => [ready: number, want: number],
  width = '6rem',
  // A kind whose shortfall can be normal (a finished pod) says when it is a warning.
  short: (r: Row) => boolean = (r) => {
    const [a, b] = ratio(r);
    return a < b;
  },
): KindColumn {
  return {
    id,
    header,
    width,
    align: 'end',
    value: (r) => {
      const [a, b] = ratio(r);
      return b === 0 ? 1 : a / b;
    },
    render: (r) => {
      const [a, b] = ratio(r);
      return <span className={short(r) ? 'text-warn' : ''}>{`${a}/${b}`}</span>;
    },
  };
}
