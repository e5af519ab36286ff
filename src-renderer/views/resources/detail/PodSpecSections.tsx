import { formatQuantity } from '../../../kube/format';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import type { PodSpec } from '../pod/types';
import { probeText } from './Containers';

/** Probes of every container in one place (a "Probes" guidance button lands here). */
export function ProbesSection({ spec }: { spec: PodSpec | undefined }) {
  const rows = (spec?.containers ?? []).flatMap((c) =>
    (['livenessProbe', 'readinessProbe', 'startupProbe'] as const)
      .filter((k) => c[k])
      .map((k) => ({ container: c.name, kind: k.replace('Probe', ''), text: probeText(c[k]) })),
  );
  return (
    <Section id="probes" title="Probes">
      {rows.length === 0 ? (
        <p className="muted">No probes: the kubelet treats the containers as healthy while they run.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Container</th>
              <th scope="col">Probe</th>
              <th scope="col">Check</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.container}-${r.kind}`}>
                <td>{r.container}</td>
                <td>{r.kind}</td>
                <td>
                  <code>{r.text}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export function ResourcesSection({ spec }: { spec: PodSpec | undefined }) {
  const cell = (v: string | undefined, res: string) => (v ? formatQuantity(res, v) : '—');
  return (
    <Section id="resources" title="Requests and limits">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Container</th>
            <th scope="col">CPU request</th>
            <th scope="col">CPU limit</th>
            <th scope="col">Memory request</th>
            <th scope="col">Memory limit</th>
          </tr>
        </thead>
        <tbody>
          {(spec?.containers ?? []).map((c) => (
            <tr key={c.name}>
              <td>{c.name}</td>
              <td>{cell(c.resources?.requests?.cpu, 'cpu')}</td>
              <td>{cell(c.resources?.limits?.cpu, 'cpu')}</td>
              <td>{cell(c.resources?.requests?.memory, 'memory')}</td>
              <td>{cell(c.resources?.limits?.memory, 'memory')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

function volumeSource(v: Record<string, unknown>): string {
  const kind = Object.keys(v).find((k) => k !== 'name');
  if (!kind) return 'unknown';
  const src = v[kind] as Record<string, unknown> | null;
  const detail = (src && (src.claimName ?? src.secretName ?? src.name ?? src.path ?? src.medium)) as
    | string
    | undefined;
  return detail ? `${kind} (${detail})` : kind;
}

export function VolumesSection({ spec }: { spec: PodSpec | undefined }) {
  const vols = spec?.volumes ?? [];
  return (
    <Section id="volumes" title="Volumes">
      {vols.length === 0 ? (
        <p className="muted">No volumes.</p>
      ) : (
        <KeyValue pairs={vols.map((v) => [v.name, volumeSource(v)])} />
      )}
    </Section>
  );
}

export function PullSecretsSection({ spec }: { spec: PodSpec | undefined }) {
  return (
    <Section id="pull-secrets" title="Image pull secrets and service account">
      <KeyValue
        pairs={[
          [
            'Image pull secrets',
            spec?.imagePullSecrets?.length ? spec.imagePullSecrets.map((s) => s.name).join(', ') : 'none',
          ],
          ['Service account', spec?.serviceAccountName ?? 'default'],
          ['Images', (spec?.containers ?? []).map((c) => c.image).join(', ')],
        ]}
      />
    </Section>
  );
}

export function SchedulingSection({ spec }: { spec: PodSpec | undefined }) {
  return (
    <Section id="scheduling" title="Scheduling">
      <KeyValue
        pairs={[
          [
            'Node selector',
            Object.entries(spec?.nodeSelector ?? {})
              .map(([k, v]) => `${k}=${v}`)
              .join(', ') || 'none',
          ],
          [
            'Tolerations',
            (spec?.tolerations ?? [])
              .map(
                (t) =>
                  `${t.key ?? '*'}${t.operator === 'Exists' ? '' : `=${t.value ?? ''}`}:${t.effect ?? 'all'}`,
              )
              .join(', ') || 'none',
          ],
          ['Affinity', spec?.affinity ? <code key="a">{JSON.stringify(spec.affinity)}</code> : 'none'],
          [
            'Topology spread',
            spec?.topologySpreadConstraints?.length
              ? `${spec.topologySpreadConstraints.length} constraint(s)`
              : null,
          ],
          ['Priority class', spec?.priorityClassName],
          ['Scheduling gates', spec?.schedulingGates?.map((g) => g.name).join(', ')],
          ['Restart policy', spec?.restartPolicy],
          [
            'Grace period',
            spec?.terminationGracePeriodSeconds !== undefined
              ? `${spec.terminationGracePeriodSeconds}s`
              : null,
          ],
        ]}
      />
    </Section>
  );
}
