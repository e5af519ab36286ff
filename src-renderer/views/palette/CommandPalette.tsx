import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { create } from 'zustand';
import type { SearchHit } from '../../../src-shared/contract/relations-operations';
import { searchObjects } from '../../api/relations';
import { useDebounced } from '../../hooks/useDebounced';
import { usePolling } from '../../hooks/usePolling';
import { entryFor, type KindEntry } from '../../kube/kind-catalog';
import { useCurrentCluster } from '../../state/clusters';
import { api } from '../../state/connection';
import { useKinds } from '../../state/kinds';
import { useRoute } from '../../state/route';
import { useModal } from '../common/useModal';
import { opensPalette } from './keys';
import { matchKinds, parseQuery } from './match';
import './palette.css';

/**
 * The command palette (Ctrl/Cmd-K, or `:` as in k9s): type a kind's name or short name to open its
 * list, or the start of an object's name to open that object, across kinds and namespaces, from
 * the service's search of its caches. `kind/name` searches one kind. A combobox over a listbox:
 * arrows move, Enter opens, Escape closes and focus goes back where it was.
 */

interface PaletteState {
  open: boolean;
  show(): void;
  hide(): void;
}

export const usePalette = create<PaletteState>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));

const OBJECT_LIMIT = 20;

/** Opens the palette on its shortcuts; the shell installs it once. */
export function usePaletteShortcuts(): void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (usePalette.getState().open || !opensPalette(e)) return;
      e.preventDefault();
      usePalette.getState().show();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function PaletteButton() {
  const show = usePalette((s) => s.show);
  return (
    <button type="button" className="palette-button" onClick={show} aria-keyshortcuts="Control+K Meta+K">
      Go to… <kbd>Ctrl K</kbd>
    </button>
  );
}

type Option = { id: string; kind: KindEntry } | { id: string; hit: SearchHit };

export function CommandPalette() {
  const open = usePalette((s) => s.open);
  const ref = useModal(open);
  return (
    <dialog
      ref={ref}
      className="palette"
      aria-label="Go to a kind or an object"
      onClose={() => usePalette.getState().hide()}
    >
      {open && <PaletteBody />}
    </dialog>
  );
}

function PaletteBody() {
  const cluster = useCurrentCluster();
  const kinds = useKinds((s) => s.entries);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const q = parseQuery(text);
  const kindMatches = q.scoped ? [] : matchKinds(q.kindText, kinds);
  const scopedKind = q.scoped ? matchKinds(q.kindText, kinds, 1)[0]?.kind : undefined;
  const prefix = useDebounced(q.namePrefix, 150);
  const scope = cluster ? { workspaceId: cluster.workspaceId, clusterId: cluster.clusterId } : null;
  const searchKey =
    scope && prefix && (!q.scoped || scopedKind)
      ? `${scope.clusterId}/search/${scopedKind?.resourceType ?? '*'}/${prefix}`
      : null;
  const hits = usePolling(
    searchKey,
    (signal) =>
      searchObjects(
        api(),
        scope!,
        prefix,
        { limit: OBJECT_LIMIT, ...(scopedKind ? { resourceTypes: [scopedKind.resourceType] } : {}) },
        signal,
      ),
    { intervalMs: 0, keepPrevious: true },
  );
  const objects = searchKey ? (hits.data ?? []) : [];
  const options: Option[] = [
    ...kindMatches.map((m) => ({ id: `kind-${m.kind.resourceType}`, kind: m.kind })),
    ...objects.map((hit) => ({ id: `obj-${hit.resourceType}-${hit.namespace ?? ''}-${hit.name}`, hit })),
  ];
  const current = Math.min(active, options.length - 1);

  const choose = (o: Option | undefined) => {
    if (!o) return;
    const route = useRoute.getState();
    if ('kind' in o) route.openList(o.kind.resourceType);
    else {
      const { resourceType, name, namespace } = o.hit;
      // The object's list, scoped so the object is in it, with the object open beside it.
      const keep = !namespace || route.namespace === null || route.namespace === namespace;
      route.openList(resourceType, keep ? undefined : namespace);
      route.select({ kind: resourceType, name, ...(namespace ? { namespace } : {}) });
    }
    usePalette.getState().hide();
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') setActive(Math.min(options.length - 1, current + 1));
    else if (e.key === 'ArrowUp') setActive(Math.max(0, current - 1));
    else if (e.key === 'Enter') choose(options[current]);
    else return;
    e.preventDefault();
  };

  const optionId = (o: Option) => `${listId}-${o.id}`;
  const searching = searchKey !== null && hits.fetching;
  return (
    <div className="palette-body">
      <input
        // biome-ignore lint/a11y/noAutofocus: the palette exists to be typed into the moment it opens
        autoFocus
        type="text"
        role="combobox"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={options[current] ? optionId(options[current]) : undefined}
        aria-label="Kind or object name"
        placeholder="A kind (deploy, cm, certificate) or the start of a name; kind/name for one kind"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
      />
      <div id={listId} role="listbox" aria-label="Matches" className="palette-list">
        {options.map((o, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys
          <div
            key={o.id}
            id={optionId(o)}
            role="option"
            tabIndex={-1}
            aria-selected={i === current}
            className={i === current ? 'active' : ''}
            onMouseMove={() => i !== current && setActive(i)}
            onClick={() => choose(o)}
          >
            {'kind' in o ? (
              <>
                <span className="palette-what">Kind</span> {o.kind.label.plural}
                <span className="muted"> {[o.kind.resourceType, ...o.kind.shortNames].join(' · ')}</span>
              </>
            ) : (
              <>
                <span className="palette-what">
                  {entryFor(kinds, o.hit.resourceType)?.kind ?? o.hit.resourceType}
                </span>{' '}
                {o.hit.name}
                {o.hit.namespace && <span className="muted"> · {o.hit.namespace}</span>}
                {o.hit.status && <span className="muted"> · {o.hit.status}</span>}
              </>
            )}
          </div>
        ))}
      </div>
      <p className="palette-foot muted" aria-live="polite">
        {text.trim() === ''
          ? 'Type to search. Enter opens, Esc closes.'
          : searching
            ? 'Searching…'
            : q.scoped && !scopedKind
              ? `No kind is called “${q.kindText}”.`
              : options.length === 0
                ? 'Nothing matches.'
                : `${options.length} match${options.length === 1 ? '' : 'es'}`}
      </p>
    </div>
  );
}
