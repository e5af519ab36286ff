import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import type { Cluster } from '../../../src-shared/contract/models';
import type { KindEntry } from '../../kube/kind-catalog';
import { useKinds } from '../../state/kinds';
import { useRoute } from '../../state/route';
import { useTree } from '../../state/tree';
import { groupKinds, type KindGroup } from './kind-groups';
import { useTreeCounts } from './useTreeData';
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

/**
 * Every kind the cluster serves, grouped as people look for them (Workloads, Networking, Config &
 * storage, Access control, Cluster, then Custom resources by API group), each with its count in the
 * chosen namespace. Kinds with no objects hide unless "Show empty kinds" is on. A WAI-ARIA tree: one
 * tab stop; arrows move, Right/Left open and close, Enter opens the list. With `--authorize rbac`
 * the service leaves out the kinds the person may not list; when that is every kind, a sentence
 * says so in place of an empty tree.
 */
export function ResourceTree({ cluster }: { cluster: Cluster }) {
  const { collapsed, toggle, focusId, setFocus, showEmpty, setShowEmpty } = useTree();
  const route = useRoute();
  const kinds = useKinds((s) => s.entries);
  const kindsLoaded = useKinds((s) => s.loaded);
  const scope = { workspaceId: cluster.workspaceId, clusterId: cluster.clusterId };
  const { counts } = useTreeCounts(scope, route.namespace, kinds);
  const current = route.area === 'resources' ? route.kind : null;
  const grouped = groupKinds(kinds, { counts, showEmpty, current });
  const hidden = [...grouped.builtIn, ...grouped.custom].reduce((n, g) => n + g.hidden, 0);
  const refs = useRef(new Map<string, HTMLDivElement>());
  const toggleId = useId();

  const items: Item[] = [];
  const open = (id: string) => !collapsed.has(id);
  const pushKinds = (ks: KindEntry[], level: number, parent: string) => {
    for (const k of ks) {
      items.push({
        id: `kind:${k.resourceType}`,
        level,
        label: k.label.plural,
        count: counts.get(k.resourceType),
        expandable: false,
        parent,
        current: k.resourceType === current,
        activate: () => route.openList(k.resourceType),
      });
    }
  };
  const pushGroup = (g: KindGroup, id: string, level: number, parent: string | null) => {
    items.push({
      id,
      level,
      label: g.label,
      expandable: true,
      parent,
      current: false,
      activate: () => toggle(id),
    });
    if (open(id)) pushKinds(g.kinds, level + 1, id);
  };
  for (const g of grouped.builtIn) if (g.kinds.length > 0) pushGroup(g, `group:${g.id}`, 1, null);
  const customShown = grouped.custom.filter((g) => g.kinds.length > 0);
  if (customShown.length > 0) {
    items.push({
      id: 'group:custom',
      level: 1,
      label: 'Custom resources',
      expandable: true,
      parent: null,
      current: false,
      activate: () => toggle('group:custom'),
    });
    if (open('group:custom')) for (const g of customShown) pushGroup(g, g.id, 2, 'group:custom');
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
          if (item.expandable && !open(item.id)) toggle(item.id, true);
          else if (item.expandable) go(i + 1);
          return true;
        case 'ArrowLeft':
          if (item.expandable && open(item.id)) toggle(item.id, false);
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

  if (kindsLoaded && kinds.length === 0) {
    return (
      <nav aria-label="Cluster resources" className="tree-nav">
        <p className="empty" role="status" data-testid="tree-no-kinds">
          You may not list any kind of resource in {cluster.name}. Ask a cluster administrator for a Role that
          grants it.
        </p>
      </nav>
    );
  }

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
              {...(it.expandable ? { 'aria-expanded': open(it.id) } : {})}
              tabIndex={it.id === tabStop ? 0 : -1}
              className={`tree-item ${it.current ? 'current' : ''} ${it.expandable ? 'tree-group' : ''}`}
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
                <span className="twisty" aria-hidden="true">
                  {open(it.id) ? '▾' : '▸'}
                </span>
              ) : (
                <span className="twisty" aria-hidden="true" />
              )}
              <span className="tree-label">{it.label}</span>
              {it.count !== undefined && (
                <span className="count">
                  {it.count}
                  <span className="sr-only"> items</span>
                </span>
              )}
            </div>
          );
        })}
      </div>
      <p className="tree-empty-toggle">
        <input
          id={toggleId}
          type="checkbox"
          checked={showEmpty}
          onChange={(e) => setShowEmpty(e.target.checked)}
        />
        <label htmlFor={toggleId}>Show empty kinds{!showEmpty && hidden > 0 ? ` (${hidden})` : ''}</label>
      </p>
    </nav>
  );
}
