import { type KeyboardEvent, useEffect, useRef } from 'react';
import type { Cluster } from '../../../src-shared/contract/models';
import type { ResourceType } from '../../../src-shared/kube/kinds';
import { useRoute } from '../../state/route';
import { useTree } from '../../state/tree';
import { KIND_LABELS, NAMESPACED_KINDS } from './kinds';
import { useTreeData } from './useTreeData';
import './tree.css';

interface Item {
  id: string;
  level: number;
  label: string;
  count?: number | undefined;
  expandable: boolean;
  parent: string | null;
  current: boolean;
  activate(): void;
}

function countLabel(n: number | undefined): string {
  return n === undefined ? '' : String(n);
}

/**
 * cluster → Nodes, Namespaces → each namespace → its kinds, with counts at every level.
 * A WAI-ARIA tree: one tab stop; arrows move, Right/Left open and close, Enter opens the list.
 */
export function ResourceTree({ cluster }: { cluster: Cluster }) {
  const { expanded, toggle, focusId, setFocus } = useTree();
  const route = useRoute();
  const scope = { workspaceId: cluster.workspaceId, clusterId: cluster.clusterId };
  const openNs = [...expanded].filter((id) => id.startsWith('ns:')).map((id) => id.slice(3));
  const data = useTreeData(scope, expanded.has('namespaces') ? openNs : []);
  const refs = useRef(new Map<string, HTMLDivElement>());

  const isList = (kind: ResourceType, ns: string | null) =>
    route.area === 'resources' && route.kind === kind && (route.namespace ?? null) === ns;

  const items: Item[] = [];
  const push = (i: Item) => items.push(i);
  push({
    id: 'cluster',
    level: 1,
    label: cluster.name,
    expandable: true,
    parent: null,
    current: false,
    activate: () => toggle('cluster'),
  });
  if (expanded.has('cluster')) {
    push({
      id: 'nodes',
      level: 2,
      label: 'Nodes',
      count: data.nodes,
      expandable: false,
      parent: 'cluster',
      current: isList('node', null),
      activate: () => route.openList('node', null),
    });
    push({
      id: 'namespaces',
      level: 2,
      label: 'Namespaces',
      count: data.namespaces?.length,
      expandable: true,
      parent: 'cluster',
      current: isList('namespace', null),
      activate: () => route.openList('namespace', null),
    });
    if (expanded.has('namespaces')) {
      for (const ns of ['*', ...(data.namespaces ?? [])]) {
        const id = `ns:${ns}`;
        push({
          id,
          level: 3,
          label: ns === '*' ? 'All namespaces' : ns,
          expandable: true,
          parent: 'namespaces',
          current: ns !== '*' && route.selected?.kind === 'namespace' && route.selected.name === ns,
          activate: () => {
            toggle(id, true);
            if (ns !== '*') route.select({ kind: 'namespace', name: ns });
          },
        });
        if (expanded.has(id)) {
          for (const k of NAMESPACED_KINDS) {
            const nsValue = ns === '*' ? null : ns;
            push({
              id: `${id}:${k}`,
              level: 4,
              label: KIND_LABELS[k],
              count: data.counts.get(ns)?.get(k),
              expandable: false,
              parent: id,
              current: isList(k, nsValue),
              activate: () => route.openList(k, nsValue),
            });
          }
        }
      }
    }
  }

  const tabStop = items.some((i) => i.id === focusId)
    ? focusId
    : (items.find((i) => i.current)?.id ?? items[0]?.id);

  // Move DOM focus with the roving tab stop, but only while the tree already has focus.
  const treeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (tabStop && treeRef.current?.contains(document.activeElement)) refs.current.get(tabStop)?.focus();
  }, [tabStop]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = items.findIndex((it) => it.id === tabStop);
    const item = items[i];
    if (!item) return;
    const go = (j: number) => {
      const t = items[Math.max(0, Math.min(items.length - 1, j))];
      if (t) setFocus(t.id);
    };
    const handled = (() => {
      switch (e.key) {
        case 'ArrowDown':
          go(i + 1);
          return true;
        case 'ArrowUp':
          go(i - 1);
          return true;
        case 'Home':
          go(0);
          return true;
        case 'End':
          go(items.length - 1);
          return true;
        case 'ArrowRight':
          if (item.expandable && !expanded.has(item.id)) toggle(item.id, true);
          else if (item.expandable) go(i + 1);
          return true;
        case 'ArrowLeft':
          if (item.expandable && expanded.has(item.id)) toggle(item.id, false);
          else if (item.parent) setFocus(item.parent);
          return true;
        case 'Enter':
        case ' ':
          item.activate();
          return true;
        default:
          return false;
      }
    })();
    if (handled) e.preventDefault();
  };

  const siblings = (it: Item) => items.filter((o) => o.parent === it.parent);

  return (
    <nav aria-label="Cluster resources" className="tree-nav">
      <div
        role="tree"
        aria-label={`Resources of ${cluster.name}`}
        className="tree"
        ref={treeRef}
        onKeyDown={onKey}
      >
        {items.map((it) => {
          const sib = siblings(it);
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled once on the tree (roving focus)
            <div
              key={it.id}
              ref={(el) => {
                if (el) refs.current.set(it.id, el);
                else refs.current.delete(it.id);
              }}
              role="treeitem"
              aria-level={it.level}
              aria-setsize={sib.length}
              aria-posinset={sib.indexOf(it) + 1}
              aria-selected={it.current}
              {...(it.expandable ? { 'aria-expanded': expanded.has(it.id) } : {})}
              tabIndex={it.id === tabStop ? 0 : -1}
              className={`tree-item ${it.current ? 'current' : ''}`}
              style={{ paddingLeft: `${(it.level - 1) * 0.9 + 0.4}rem` }}
              onClick={(e) => {
                e.stopPropagation();
                setFocus(it.id);
                it.activate();
              }}
              onFocus={() => it.id !== tabStop && setFocus(it.id)}
              data-tree-id={it.id}
            >
              {it.expandable ? (
                <span
                  className="twisty"
                  aria-hidden="true"
                  onClick={(e) => {
                    e.stopPropagation();
                    toggle(it.id);
                  }}
                >
                  {expanded.has(it.id) ? '▾' : '▸'}
                </span>
              ) : (
                <span className="twisty" aria-hidden="true" />
              )}
              <span className="tree-label">{it.label}</span>
              {it.count !== undefined && (
                <span className="count">
                  {countLabel(it.count)}
                  <span className="sr-only"> items</span>
                </span>
              )}
            </div>
          );
        })}
      </div>
    </nav>
  );
}
