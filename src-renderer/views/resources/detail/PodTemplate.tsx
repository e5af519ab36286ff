import { Labels } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import type { PodTemplate as Template } from '../pod/types';
import { ContainerCard } from './Containers';

/** The pod template of a workload: what each new pod will look like. */
export function PodTemplateSection({ template }: { template: Template | undefined }) {
  const spec = template?.spec;
  return (
    <Section id="template" title="Pod template">
      <p>
        Labels: <Labels labels={template?.metadata?.labels} />
      </p>
      {(spec?.initContainers ?? []).map((c) => (
        <ContainerCard key={`init-${c.name}`} c={c} />
      ))}
      {(spec?.containers ?? []).map((c) => (
        <ContainerCard key={c.name} c={c} />
      ))}
      {spec?.volumes?.length ? (
        <p className="muted">Volumes: {spec.volumes.map((v) => v.name).join(', ')}</p>
      ) : null}
      {spec?.imagePullSecrets?.length ? (
        <p className="muted">Image pull secrets: {spec.imagePullSecrets.map((s) => s.name).join(', ')}</p>
      ) : null}
    </Section>
  );
}
