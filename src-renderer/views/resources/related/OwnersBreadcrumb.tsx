import type { Relations } from '../../../../src-shared/contract/relations-operations';
import type { ResourceRef } from '../../../state/route';
import { RefLink } from './RefLink';

/**
 * Deployment › ReplicaSet › Pod: the object's controllers from the root down to it, each a link.
 * The service answers them nearest first; a missing owner ends the chain and is marked.
 */
export function OwnersBreadcrumb({
  relations,
  self,
}: {
  relations: Relations | undefined;
  self: ResourceRef;
}) {
  const owners = relations?.owners ?? [];
  if (owners.length === 0) return null;
  return (
    <nav aria-label="Owners" className="owners">
      <ol>
        {[...owners].reverse().map((o) => (
          <li key={`${o.resourceType}/${o.name}`}>
            <RefLink refTo={o} />
          </li>
        ))}
        <li aria-current="page">{self.name}</li>
      </ol>
    </nav>
  );
}
