import type {
  DependentRef,
  RelationRef,
  Relations,
} from '../../../../src-shared/contract/relations-operations';
import type { Polled } from '../../../hooks/usePolling';
import { Empty, Loading, ProblemNotice } from '../../common/Problem';
import { Section } from '../../common/Section';
import { RefLink } from './RefLink';

/**
 * The Related tab: what the object uses (a missing ConfigMap marked as such, keys it reads that
 * are not there), what uses it, what it selects and what selects it, and the tree of its
 * dependents. Each object opens with a click. Kinds the service could not read are named, since
 * nothing of them is shown (and nothing is called missing because of them).
 */

function RefList({ refs, leftOff }: { refs: RelationRef[]; leftOff: number | undefined }) {
  return (
    <ul className="related-list">
      {refs.map((r) => (
        <li
          key={`${r.resourceType}/${r.namespace ?? ''}/${r.name}`}
          data-missing={r.missing ? 'true' : undefined}
        >
          <RefLink refTo={r} showNamespace />
          {r.optional && <span className="muted"> (optional)</span>}
          {r.via && r.via.length > 0 && <div className="muted related-via">{r.via.join(', ')}</div>}
          {r.missingKeys && r.missingKeys.length > 0 && (
            <div className="text-bad related-via">
              Keys it reads that are not there: {r.missingKeys.map((k) => `“${k}”`).join(', ')}
            </div>
          )}
        </li>
      ))}
      {leftOff ? <li className="muted">…and {leftOff} more</li> : null}
    </ul>
  );
}

function DependentsTree({ nodes }: { nodes: DependentRef[] }) {
  return (
    <ul className="related-tree">
      {nodes.map((n) => (
        <li key={`${n.resourceType}/${n.namespace ?? ''}/${n.name}`}>
          <RefLink refTo={n} />
          {n.truncated && <span className="muted"> (more, not shown)</span>}
          {n.children && n.children.length > 0 && <DependentsTree nodes={n.children} />}
        </li>
      ))}
    </ul>
  );
}

const FLAT: ReadonlyArray<[keyof NonNullable<Relations['leftOff']> & keyof Relations, string]> = [
  ['uses', 'Uses'],
  ['usedBy', 'Used by'],
  ['selects', 'Selects'],
  ['selectedBy', 'Selected by'],
];

export function RelatedTab({ relations }: { relations: Polled<Relations> }) {
  const r = relations.data;
  if (!r) {
    if (relations.error) return <ProblemNotice error={relations.error} what="related objects" />;
    return <Loading label="Loading related objects…" />;
  }
  const any = r.owners.length + r.dependents.length + FLAT.reduce((n, [k]) => n + r[k].length, 0) > 0;
  return (
    <div className="related" data-testid="related">
      {relations.error && <ProblemNotice error={relations.error} what="related objects" />}
      {!any && !r.hidden && <Empty>Nothing else in the cluster relates to this object.</Empty>}
      {r.owners.length > 0 && (
        <Section id="owners" title="Owners">
          <RefList refs={r.owners} leftOff={undefined} />
        </Section>
      )}
      {FLAT.map(([k, title]) =>
        r[k].length > 0 ? (
          <Section key={k} id={`related-${k}`} title={title}>
            <RefList refs={r[k]} leftOff={r.leftOff?.[k]} />
          </Section>
        ) : null,
      )}
      {r.dependents.length > 0 && (
        <Section id="dependents" title="Dependents">
          <DependentsTree nodes={r.dependents} />
        </Section>
      )}
      {r.hidden !== undefined && (
        // --authorize rbac left out what the person may not read: say so, so "nothing" is not read as none.
        <p className="muted related-hidden" data-testid="related-hidden">
          {r.hidden === 1
            ? '1 related object is not shown: you do not have permission to read it.'
            : `${r.hidden} related objects are not shown: you do not have permission to read them.`}
        </p>
      )}
      {r.gaps && r.gaps.length > 0 && (
        <p className="muted related-gaps">
          Not shown, as Skiff could not read them:{' '}
          {r.gaps.map((g) => `${g.resourceType} (${g.detail})`).join('; ')}.
        </p>
      )}
    </div>
  );
}
