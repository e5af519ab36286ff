import type { Pod } from '../../../kube/types';
import { useRoute } from '../../../state/route';

/**
 * RESERVED FOR THE LOGS ISSUE. The tab, the container choice and the "previous" flag are wired
 * (route.logs, set by guidance actions such as "Logs of the previous container"); the viewer
 * itself (live tail, previous run, search, time and level filters) replaces this component.
 */
export function LogsPlaceholder({ pod }: { pod: Pod }) {
  const logs = useRoute((s) => s.logs);
  const openLogs = useRoute((s) => s.openLogs);
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
  const container = logs.container && containers.includes(logs.container) ? logs.container : containers.at(-1);
  return (
    <div className="logs-placeholder" data-testid="logs-placeholder">
      <div className="logs-bar">
        <label>
          Container{' '}
          <select
            value={container ?? ''}
            onChange={(e) => openLogs({ container: e.target.value, previous: logs.previous })}
          >
            {containers.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={logs.previous}
            onChange={(e) => openLogs({ ...(container ? { container } : {}), previous: e.target.checked })}
          />{' '}
          Previous container instance
        </label>
      </div>
      <div className="notice notice-info">
        <strong>Logs viewer: coming in a later release</strong>
        <p>
          This tab will show the {logs.previous ? 'previous (terminated) instance of' : 'live log of'} container{' '}
          <code>{container ?? '—'}</code> of pod <code>{pod.metadata.name}</code>. Until then:
        </p>
        <pre>
          <code>
            kubectl logs -n {pod.metadata.namespace} {pod.metadata.name} -c {container ?? '<container>'}
            {logs.previous ? ' --previous' : ' --follow'}
          </code>
        </pre>
      </div>
    </div>
  );
}
