import { useEffect, useState } from 'react';
import type { Cluster } from '../../src-shared/contract/models';
import { defaultClient } from '../api';

type State =
  | { phase: 'loading' }
  | { phase: 'ready'; version: string; clusters: Cluster[] }
  | { phase: 'error'; message: string };

/** Placeholder shell: proves the renderer reaches the service through the same client the UI will use. */
export function App() {
  const [state, setState] = useState<State>({ phase: 'loading' });
  useEffect(() => {
    const client = defaultClient();
    (async () => {
      const health = await client.call('health', { params: {} });
      const clusters = await client.call('listClusters', { params: { workspaceId: 'default' } });
      setState({ phase: 'ready', version: health.data.version, clusters: clusters.data });
    })().catch((err: unknown) => setState({ phase: 'error', message: (err as Error).message }));
  }, []);

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Skiff</h1>
      {state.phase === 'loading' && <p>Connecting to the service…</p>}
      {state.phase === 'error' && <p role="alert">The service did not answer: {state.message}</p>}
      {state.phase === 'ready' && (
        <>
          <p data-testid="service-status">Service is up (version {state.version}).</p>
          <ul>
            {state.clusters.map((c) => (
              <li key={c.clusterId}>
                {c.name} — {c.status}
                {c.kubernetesVersion ? ` (${c.kubernetesVersion})` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
    </main>
  );
}
