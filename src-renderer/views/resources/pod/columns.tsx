import { age } from '../../../kube/format';
import { view } from '../../../kube/meta';
import { badgeColumn, type KindColumn, type Row, ratioColumn } from '../columns';
import { lastRestart, podStatus, readyCount, readyShort, restarts, statusTone } from './status';
import type { Pod } from './types';

const pod = (r: Row) => view<Pod>(r.resource);

export const podColumns: KindColumn[] = [
  badgeColumn('status', 'Status', 'minmax(9rem, 1.2fr)', (r) => podStatus(pod(r)), statusTone),
  ratioColumn(
    'ready',
    'Ready',
    (r) => {
      const { ready, total } = readyCount(pod(r));
      return [ready, total];
    },
    // "Ready ▲" and "1/1" fit: beside the detail pane, every rem goes to keeping columns.
    '4.5rem',
    (r) => readyShort(pod(r)),
  ),
  {
    id: 'restarts',
    header: 'Restarts',
    // The count fits in 5.5rem; the "(5m ago)" after it takes what room there is, up to 7.5rem.
    width: 'minmax(5.5rem, 7.5rem)',
    align: 'end',
    value: (r) => restarts(pod(r)),
    render: (r) => {
      const n = restarts(pod(r));
      const last = lastRestart(pod(r));
      return (
        <span className={n > 0 ? 'text-warn' : ''}>
          {n}
          {n > 0 && last ? <span className="muted"> ({age(last)} ago)</span> : null}
        </span>
      );
    },
  },
  { id: 'node', header: 'Node', width: 'minmax(8rem, 1fr)', value: (r) => pod(r).spec?.nodeName ?? '' },
  { id: 'ip', header: 'IP', width: '8rem', value: (r) => pod(r).status?.podIP ?? '' },
];

/** Pods that are not fine get a tinted row so the eye finds them in a long list. */
export function podRowClass(r: Row): string | undefined {
  const tone = statusTone(podStatus(pod(r)));
  return tone === 'bad' ? 'row-bad' : tone === 'warn' ? 'row-warn' : undefined;
}
