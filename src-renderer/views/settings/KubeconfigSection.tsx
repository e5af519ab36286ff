import { type FormEvent, useId, useState } from 'react';
import { useAppSettings } from '../../state/app-settings';
import { AdminTable } from '../common/AdminTable';
import { useAllClusters } from './useAllClusters';

/** Kubeconfig files the service reads at start, and the contexts it actually loaded from them. */
export function KubeconfigSection() {
  const { settings, save, saving } = useAppSettings();
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const pathId = useId();
  const contexts = useAllClusters();
  const paths = settings?.kubeconfig.paths ?? [];
  const apply = async (next: string[]) => {
    setError(await save({ kubeconfig: { paths: next } }));
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const p = path.trim();
    if (!p || paths.includes(p)) return;
    await apply([...paths, p]);
    setPath('');
  };
  return (
    <section className="panel" aria-labelledby="kc-title" data-testid="kubeconfig-settings">
      <h2 id="kc-title">Kubeconfig files</h2>
      {settings?.kubeconfig.restartRequired && (
        <p className="notice notice-info" role="status">
          Changed files take effect the next time Skiff starts. This run reads:{' '}
          {settings.kubeconfig.active.length
            ? settings.kubeconfig.active.join(', ')
            : 'no files (demo cluster only)'}
          .
        </p>
      )}
      {paths.length === 0 ? (
        <p className="muted">
          No kubeconfig files configured; Skiff uses $KUBECONFIG or ~/.kube/config when present.
        </p>
      ) : (
        <ul className="plain-list" aria-label="Configured kubeconfig files">
          {paths.map((p) => (
            <li key={p} className="row">
              <code>{p}</code>
              <button
                type="button"
                disabled={saving}
                onClick={() => void apply(paths.filter((x) => x !== p))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="row form-row" onSubmit={add}>
        <div className="field grow">
          <label htmlFor={pathId}>Add a kubeconfig file</label>
          <input
            id={pathId}
            value={path}
            placeholder="/home/me/.kube/staging.yaml"
            onChange={(e) => setPath(e.target.value)}
          />
        </div>
        <button type="submit" disabled={saving || path.trim() === '' || !settings}>
          Add file
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <h3 className="subhead">Contexts loaded now</h3>
      <AdminTable
        label="Loaded contexts"
        rows={contexts.data ?? []}
        rowKey={(c) => c.clusterId}
        columns={[
          { header: 'Context', cell: (c) => c.context },
          { header: 'Cluster id', cell: (c) => <code>{c.clusterId}</code> },
          { header: 'Server', cell: (c) => c.server },
        ]}
      />
    </section>
  );
}
