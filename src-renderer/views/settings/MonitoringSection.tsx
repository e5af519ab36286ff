import { useState } from 'react';
import type { Cluster, MonitoringFlags } from '../../../src-shared/contract/models';
import { useClusters } from '../../state/clusters';
import { api } from '../../state/connection';
import { useRoute } from '../../state/route';
import { problemText } from '../common/Problem';
import { ClusterStatusBadge } from '../navigation/Switchers';

const FLAGS: Array<{ key: keyof MonitoringFlags; label: string; help: string }> = [
  {
    key: 'resourceEventsEnabled',
    label: 'Resource events',
    help: 'Events about workloads, pods and services (clusterAgent.monitoring.resourceEventsEnabled).',
  },
  {
    key: 'systemEventsEnabled',
    label: 'System events',
    help: 'Cluster-wide and node-level events (clusterAgent.monitoring.systemEventsEnabled).',
  },
];

function ClusterFlags({ cluster, workspaceId }: { cluster: Cluster; workspaceId: string }) {
  const put = useClusters((s) => s.put);
  const [saving, setSaving] = useState<keyof MonitoringFlags | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The switch moves at once; a failed save puts it back and says why.
  const [pending, setPending] = useState<Partial<MonitoringFlags>>({});
  const flags = { ...cluster.monitoring.clusterAgent.monitoring, ...pending };
  const save = async (key: keyof MonitoringFlags, value: boolean) => {
    setSaving(key);
    setError(null);
    setPending({ [key]: value });
    try {
      const r = await api().call('updateCluster', {
        params: { workspaceId, clusterId: cluster.clusterId },
        body: { clusterAgent: { monitoring: { [key]: value } } },
      });
      put(r.data);
    } catch (err) {
      setError(problemText(err));
    } finally {
      setPending({});
      setSaving(null);
    }
  };
  return (
    <tr data-cluster={cluster.clusterId}>
      <th scope="row">
        {cluster.name} <ClusterStatusBadge status={cluster.status} />
        <div className="muted small">{cluster.server}</div>
      </th>
      {FLAGS.map((f) => (
        <td key={f.key}>
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              aria-checked={flags[f.key]}
              checked={flags[f.key]}
              disabled={saving !== null}
              aria-describedby={`flag-help-${f.key}`}
              onChange={(e) => void save(f.key, e.target.checked)}
            />
            <span>{flags[f.key] ? 'on' : 'off'}</span>
            <span className="sr-only">
              {f.label} for {cluster.name}
            </span>
          </label>
        </td>
      ))}
      <td>
        {error && (
          <span className="field-error" role="alert">
            {error}
          </span>
        )}
      </td>
    </tr>
  );
}

/** The two monitoring flags of every cluster of the workspace, saved as soon as they are switched. */
export function MonitoringSection() {
  const clusters = useClusters((s) => s.clusters);
  const workspaceId = useRoute((s) => s.workspaceId);
  return (
    <section className="panel" aria-labelledby="monitoring-title" data-testid="monitoring-settings">
      <h2 id="monitoring-title">Event monitoring</h2>
      {FLAGS.map((f) => (
        <p key={f.key} id={`flag-help-${f.key}`} className="muted">
          <strong>{f.label}:</strong> {f.help}
        </p>
      ))}
      {clusters.length === 0 || !workspaceId ? (
        <p className="muted">This workspace has no clusters.</p>
      ) : (
        <table className="table" aria-label="Monitoring flags per cluster">
          <thead>
            <tr>
              <th scope="col">Cluster</th>
              {FLAGS.map((f) => (
                <th key={f.key} scope="col">
                  {f.label}
                </th>
              ))}
              <th scope="col">
                <span className="sr-only">Errors</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {clusters.map((c) => (
              <ClusterFlags key={c.clusterId} cluster={c} workspaceId={workspaceId} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
