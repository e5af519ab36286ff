import { useId } from 'react';
import { listAll } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { useCurrentCluster } from '../../state/clusters';
import { api } from '../../state/connection';
import { useRoute } from '../../state/route';
import { forbiddenOf } from '../common/forbidden';

/**
 * The namespace every list is scoped to, in the header: "All namespaces" or one of the cluster's.
 * A chosen namespace that has gone stays chosen (and says so) rather than silently widening the
 * lists to every namespace. With `--authorize rbac` the service lists only the namespaces the person
 * may read, so a chosen one can also vanish for want of permission (the lists then say which in
 * words), and there may be none at all: the picker says so instead of offering an empty choice.
 */
export function NamespaceSelect() {
  const cluster = useCurrentCluster();
  const namespace = useRoute((s) => s.namespace);
  const setNamespace = useRoute((s) => s.setNamespace);
  const id = useId();
  const scope = cluster ? { workspaceId: cluster.workspaceId, clusterId: cluster.clusterId } : null;
  const names = usePolling(
    scope ? `${scope.workspaceId}/${scope.clusterId}/namespace-names` : null,
    async (signal) =>
      (await listAll(api(), scope!, 'namespace', null, '', signal)).items
        .map((w) => w.resource.metadata.name)
        .sort(),
    { intervalMs: 30_000 },
  );
  if (!cluster) return null;
  const known = names.data ?? [];
  const gone = namespace !== null && names.data !== undefined && !known.includes(namespace);
  const refused = forbiddenOf(names.error) !== undefined;
  const none = refused || (names.data !== undefined && known.length === 0);
  return (
    <div className="field namespace-select">
      <label htmlFor={id}>Namespace</label>
      <select id={id} value={namespace ?? ''} onChange={(e) => setNamespace(e.target.value || null)}>
        <option value="">All namespaces</option>
        {namespace !== null && !known.includes(namespace) && (
          <option value={namespace}>{gone ? `${namespace} (not found or not permitted)` : namespace}</option>
        )}
        {known.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      {none && (
        <span className="muted namespace-none" role="status">
          {refused ? 'You may not list namespaces here' : 'No namespace you may see'}
        </span>
      )}
    </div>
  );
}
