import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import { selectorText } from '../../../../src-shared/kube/selector-text';
import type { LabelSelector } from '../../../kube/meta';
import { useRoute } from '../../../state/route';

/** Opens the pod list filtered by the workload's selector, so "its pods" is one click. */
export function PodsButton({
  wrapper,
  selector,
}: {
  wrapper: ResourceWrapper;
  selector: LabelSelector | undefined;
}) {
  const openList = useRoute((s) => s.openList);
  const text = selectorText(selector);
  return (
    <button
      type="button"
      onClick={() => openList('pod', wrapper.resource.metadata.namespace ?? null, text)}
      disabled={!text}
      title={text ? `Pods matching ${text}` : 'This object has no pod selector'}
    >
      Show its pods
    </button>
  );
}

/** A row of numbers with labels, for replica counts. */
export function Counters({
  items,
}: {
  items: Array<[label: string, n: number | undefined, tone?: 'ok' | 'warn' | 'neutral']>;
}) {
  return (
    <ul className="counters">
      {items.map(([label, n, tone]) => (
        <li key={label} className={`counter counter-${tone ?? 'neutral'}`}>
          <span className="counter-n">{n ?? 0}</span>
          <span className="counter-label">{label}</span>
        </li>
      ))}
    </ul>
  );
}
