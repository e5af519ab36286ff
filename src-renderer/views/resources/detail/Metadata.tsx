import type { KubeObject } from '../../../../src-shared/contract/models';
import { RESOURCE_KINDS } from '../../../../src-shared/kube/kinds';
import { age, timestamp } from '../../../kube/format';
import { entryFor, resourceTypeOf } from '../../../kube/kind-catalog';
import { ownerOf } from '../../../kube/owner';
import { useKinds } from '../../../state/kinds';
import { KeyValue, Labels } from '../../common/KeyValue';
import { ObjectLink } from '../../common/ObjectLink';
import { Section } from '../../common/Section';

/**
 * The controlling owner as a link. A pod's ReplicaSet reads as its Deployment (the nine's rule in
 * ownerOf); any other owner opens as itself when the cluster serves its kind.
 */
export function OwnerLink({ obj }: { obj: KubeObject }) {
  const owner = ownerOf(obj);
  const kinds = useKinds((s) => s.entries);
  const refs = obj.metadata.ownerReferences ?? [];
  if (refs.length === 0) return null;
  if (!owner.ok) {
    const ref = refs.find((r) => r.controller) ?? refs[0]!;
    const type =
      typeof ref.apiVersion === 'string' ? resourceTypeOf(kinds, ref.apiVersion, ref.kind) : undefined;
    if (!type) return <span>{refs.map((r) => `${r.kind}/${r.name}`).join(', ')}</span>;
    // An owner lives in its dependent's namespace, unless its kind has none (a Node owning a mirror pod).
    const namespace = entryFor(kinds, type)?.namespaced ? obj.metadata.namespace : undefined;
    return (
      <ObjectLink kind={type} name={ref.name} namespace={namespace}>
        {ref.kind}/{ref.name}
      </ObjectLink>
    );
  }
  return (
    <ObjectLink kind={owner.kind} name={owner.name} namespace={owner.namespace}>
      {RESOURCE_KINDS[owner.kind].kind}/{owner.name}
      {owner.via ? <span className="muted"> (via {owner.via})</span> : null}
    </ObjectLink>
  );
}

export function Metadata({ obj }: { obj: KubeObject }) {
  const m = obj.metadata;
  const annotations = Object.entries(m.annotations ?? {});
  return (
    <Section id="metadata" title="Metadata">
      <KeyValue
        pairs={[
          ['Name', m.name],
          ['Namespace', m.namespace],
          [
            'Created',
            m.creationTimestamp ? (
              <span key="created" title={m.creationTimestamp}>
                {timestamp(m.creationTimestamp)} ({age(m.creationTimestamp)} ago)
              </span>
            ) : null,
          ],
          ['UID', m.uid ? <code key="uid">{m.uid}</code> : null],
          ['Labels', <Labels key="l" labels={m.labels} />],
          ['Controlled by', m.ownerReferences?.length ? <OwnerLink key="owner" obj={obj} /> : null],
        ]}
      />
      {annotations.length > 0 && (
        <details className="annotations">
          <summary>Annotations ({annotations.length})</summary>
          <KeyValue pairs={annotations.map(([k, v]) => [k, <code key={k}>{v}</code>])} />
        </details>
      )}
    </Section>
  );
}
