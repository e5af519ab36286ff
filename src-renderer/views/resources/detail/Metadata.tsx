import type { KubeObject } from '../../../../src-shared/contract/models';
import { RESOURCE_KINDS } from '../../../../src-shared/kube/kinds';
import { age, timestamp } from '../../../kube/format';
import { ownerOf } from '../../../kube/owner';
import { useRoute } from '../../../state/route';
import { KeyValue, Labels } from '../../common/KeyValue';
import { Section } from '../../common/Section';

export function OwnerLink({ obj }: { obj: KubeObject }) {
  const owner = ownerOf(obj);
  const select = useRoute((s) => s.select);
  const refs = obj.metadata.ownerReferences ?? [];
  if (refs.length === 0) return null;
  if (!owner.ok) return <span>{refs.map((r) => `${r.kind}/${r.name}`).join(', ')}</span>;
  return (
    <button
      type="button"
      className="link"
      onClick={() =>
        select({
          kind: owner.kind,
          name: owner.name,
          ...(owner.namespace ? { namespace: owner.namespace } : {}),
        })
      }
    >
      {RESOURCE_KINDS[owner.kind].kind}/{owner.name}
      {owner.via ? <span className="muted"> (via {owner.via})</span> : null}
    </button>
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
