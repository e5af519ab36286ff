import { entryFor } from '../../../kube/kind-catalog';
import { useKinds } from '../../../state/kinds';
import { Badge } from '../../common/Badge';
import { ObjectLink } from '../../common/ObjectLink';

/**
 * One related object as a link that opens it in the detail pane, named "Kind name", with its
 * status word and, when it does not exist, a "missing" marker (the link still opens it, to say so).
 */

/** A relation's ref, or a guidance step's: enough to name and open the object. */
export interface Ref {
  resourceType: string;
  name: string;
  namespace?: string | undefined;
  status?: string | undefined;
  missing?: boolean | undefined;
}

export function kindWord(
  resourceType: string,
  kinds: ReturnType<typeof useKinds.getState>['entries'],
): string {
  return entryFor(kinds, resourceType)?.kind ?? resourceType;
}

export function RefLink({ refTo, showNamespace = false }: { refTo: Ref; showNamespace?: boolean }) {
  const kinds = useKinds((s) => s.entries);
  const kind = kindWord(refTo.resourceType, kinds);
  return (
    <span className="ref" data-ref={`${refTo.resourceType}/${refTo.namespace ?? ''}/${refTo.name}`}>
      <ObjectLink kind={refTo.resourceType} name={refTo.name} namespace={refTo.namespace}>
        <span className="muted">{kind}</span> {refTo.name}
      </ObjectLink>
      {showNamespace && refTo.namespace && <span className="muted"> · {refTo.namespace}</span>}
      {refTo.missing ? (
        <>
          {' '}
          <Badge tone="bad" title={`${kind} ${refTo.name} does not exist`}>
            missing
          </Badge>
        </>
      ) : refTo.status ? (
        <span className="muted"> · {refTo.status}</span>
      ) : null}
    </span>
  );
}
