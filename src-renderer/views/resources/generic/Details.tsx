import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { conditionSummary, conditionsOf } from '../../../kube/conditions';
import type { KindEntry } from '../../../kube/kind-catalog';
import { Badge } from '../../common/Badge';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { ConditionsTable } from '../../guidance/ConditionGuidance';
import { ObjectExplanation } from '../../guidance/ObjectExplanation';
import { Metadata } from '../detail/Metadata';
import { ObjectTree } from './ObjectTree';
import { cellOf, compileColumns } from './printer-cells';

/**
 * The overview of an object of any kind without a folder of its own: its status from its
 * conditions and what is wrong with it, its printer columns (all of them, the wide view's too),
 * its conditions, its metadata, then its spec, its status and any other top-level fields (a
 * ConfigMap's data, a Role's rules) in a readable form. Conditions are shown once, in their table.
 */

const OWN = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

function wideColumns(entry: KindEntry) {
  return compileColumns(entry.columns?.map((c) => ({ ...c, priority: 0 })));
}

export function GenericDetails({
  wrapper,
  scope,
  entry,
}: {
  wrapper: ResourceWrapper;
  scope: Scope;
  entry: KindEntry;
}) {
  const obj = wrapper.resource;
  const summary = conditionSummary(obj);
  const conditions = conditionsOf(obj);
  const columns = wideColumns(entry);
  const { conditions: _shown, ...status } = obj.status ?? {};
  const others = Object.entries(obj).filter(([k]) => !OWN.has(k));
  return (
    <>
      {summary && (
        <Section id="status" title="Status">
          <p>
            <Badge tone={summary.tone}>{summary.text}</Badge>
            {summary.message && <span className="muted"> {summary.message}</span>}
          </p>
        </Section>
      )}
      <ObjectExplanation
        scope={scope}
        target={{
          kind: entry.resourceType,
          name: obj.metadata.name,
          ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
        }}
        version={obj.metadata.resourceVersion}
      />
      {columns.length > 0 && (
        <Section id="columns" title="Summary">
          <KeyValue pairs={columns.map((c) => [c.column.name, cellOf(c, obj).text || null])} />
        </Section>
      )}
      {conditions.length > 0 && (
        <Section id="conditions" title="Conditions">
          <ConditionsTable conditions={conditions} subject="object-condition" values={{}} guidance={false} />
        </Section>
      )}
      <Metadata obj={obj} />
      {obj.spec && (
        <Section id="spec" title="Spec">
          <ObjectTree value={obj.spec} />
        </Section>
      )}
      {Object.keys(status).length > 0 && (
        <Section id="status-fields" title="Status fields">
          <ObjectTree value={status} />
        </Section>
      )}
      {others.length > 0 && (
        <Section id="fields" title={others.length === 1 ? `${capital(others[0]![0])}` : 'Fields'}>
          <ObjectTree value={others.length === 1 ? others[0]![1] : Object.fromEntries(others)} />
        </Section>
      )}
    </>
  );
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
