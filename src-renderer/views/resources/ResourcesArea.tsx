import { useRoute } from '../../state/route';
import { DetailPane } from './detail/DetailPane';
import { ResourceList } from './ResourceList';

/** The list on the left, the selected object on the right. */
export function ResourcesArea({ workspaceId, clusterId }: { workspaceId: string; clusterId: string }) {
  const kind = useRoute((s) => s.kind);
  const namespace = useRoute((s) => s.namespace);
  const selected = useRoute((s) => s.selected);
  const scope = { workspaceId, clusterId };
  return (
    <div className={`resources ${selected ? 'with-detail' : ''}`}>
      <ResourceList scope={scope} kind={kind} namespace={namespace} />
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
