import { type CSSProperties, useRef } from 'react';
import { useRoute } from '../../state/route';
import { DetailPane } from './detail/DetailPane';
import { PaneResizer } from './PaneResizer';
import { usePaneWidth } from './paneWidth';
import { ResourceList } from './ResourceList';
import './resources.css';

/**
 * The list on the left, the selected object on the right, and a handle between them to resize the pane.
 * The list is keyed by what it lists: another kind, namespace or cluster is a new list, which shows
 * "Loading" until its own answer, never the previous list's rows under the new heading (whose rows
 * a click or Enter would then open as the wrong kind, and whose active row the new rows drop).
 */
export function ResourcesArea({ workspaceId, clusterId }: { workspaceId: string; clusterId: string }) {
  const kind = useRoute((s) => s.kind);
  const namespace = useRoute((s) => s.namespace);
  const selected = useRoute((s) => s.selected);
  const paneWidth = usePaneWidth((s) => s.width);
  const area = useRef<HTMLDivElement>(null);
  const scope = { workspaceId, clusterId };
  const style = paneWidth === null ? undefined : ({ '--pane-width': `${paneWidth}px` } as CSSProperties);
  return (
    <div ref={area} className={`resources ${selected ? 'with-detail' : ''}`} style={style}>
      <ResourceList
        key={`${workspaceId}/${clusterId}/${kind}/${namespace ?? '*'}`}
        scope={scope}
        kind={kind}
        namespace={namespace}
      />
      {selected && <PaneResizer area={area} />}
      {selected && (
        <DetailPane
          key={`${clusterId}/${selected.kind}/${selected.namespace ?? ''}/${selected.name}`}
          scope={scope}
          target={selected}
        />
      )}
    </div>
  );
}
