import { create } from 'zustand';
import type { GuidanceAction } from '../../src-shared/guidance';
import { useLists } from './lists';

/**
 * The parts of the window a person navigates to; mirrored in location.hash so reloads and Back work.
 * `kind` is any resourceType the cluster may serve (`pod`, `configmap`, `certificate.cert-manager.io`);
 * the hash checks only its spelling, the list then says when the cluster does not serve it.
 * `namespace` is the one namespace every list is scoped to (null: all), kept across kinds.
 */
export type Area = 'resources' | 'events' | 'security' | 'settings';
export type DetailTab = 'overview' | 'related' | 'events' | 'yaml' | 'logs' | 'history';

export interface ResourceRef {
  /** A resourceType, as in the route. */
  kind: string;
  name: string;
  /** Absent for nodes and namespaces. */
  namespace?: string;
}

/** A request to bring one part of the detail pane into view (a guidance action's target). */
export interface Focus {
  section: string;
  /** Changes on every request so asking twice for the same section scrolls again. */
  nonce: number;
}

/**
 * What the History tab shows besides the list of changes, each a recorded change's time (RFC 3339,
 * as the history API answers it in `time`): `to` with `from`, the diff of the versions at those
 * times; `to` alone, the diff of that change (the version just before it to the version it made);
 * `at`, the object as it was then. In the hash as `tab=history&from=…&to=…` and `&at=…`, so any
 * view can link to a diff (the diagnosis does).
 */
export interface HistoryView {
  from?: string;
  to?: string;
  at?: string;
}

/** What the logs tab was asked for; the logs issue reads this. */
export interface LogsRequest {
  container?: string;
  previous: boolean;
}

export interface Route {
  workspaceId: string | null;
  clusterId: string | null;
  area: Area;
  kind: string;
  /** The namespace every list is scoped to; null: all namespaces. Cluster-scoped kinds ignore it. */
  namespace: string | null;
  selected: ResourceRef | null;
  tab: DetailTab;
  /** Only with tab history; absent: the list of changes alone. */
  history?: HistoryView;
}

/** A guidance action to perform once the object it targets has loaded (asked for from another view). */
export interface PendingAction {
  action: GuidanceAction;
  container?: string;
  nonce: number;
}

interface RouteState extends Route {
  focus: Focus | null;
  pending: PendingAction | null;
  logs: LogsRequest;
  go(patch: Partial<Route>): void;
  /** Opens a kind's list; a namespace given (null: all) becomes the scope, undefined keeps it. */
  openList(kind: string, namespace?: string | null, selector?: string): void;
  /** Scopes every list to one namespace (null: all namespaces). */
  setNamespace(namespace: string | null): void;
  select(ref: ResourceRef | null, tab?: DetailTab): void;
  setTab(tab: DetailTab): void;
  /** Opens `ref`'s History tab at a diff or a version (HistoryView). */
  openHistory(ref: ResourceRef, view: HistoryView): void;
  /** What the open History tab shows (a diff, a version, or the list alone). */
  setHistory(view: HistoryView): void;
  focusSection(section: string, tab?: DetailTab): void;
  openLogs(req: LogsRequest): void;
  /** Opens `ref` and then performs `action` on it (the detail pane picks it up). */
  openWithAction(ref: ResourceRef, action: GuidanceAction, container?: string): void;
  clearPending(): void;
}

const TABS: readonly DetailTab[] = ['overview', 'related', 'events', 'yaml', 'logs', 'history'];
const AREAS: readonly Area[] = ['resources', 'events', 'security', 'settings'];

/** A resourceType's spelling: a lower-case DNS subdomain (`pod`, `certificate.cert-manager.io`). */
const KIND = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const isKind = (s: string | null | undefined): s is string => !!s && s.length <= 253 && KIND.test(s);
/** Node and namespace lists never take a namespace: opening them keeps the scope for the next list. */
const CLUSTER_SCOPED_BUILT_IN = new Set(['node', 'namespace']);

const HISTORY_KEYS = ['from', 'to', 'at'] as const;
/** A moment as the hash may carry it: anything Date.parse reads, of a sane length. */
const isMoment = (s: string | null): s is string => !!s && s.length <= 64 && !Number.isNaN(Date.parse(s));

/** A view with only the moments it names; undefined when it names none. */
function viewOf(view: HistoryView): HistoryView | undefined {
  const out: HistoryView = {};
  for (const k of HISTORY_KEYS) if (view[k]) out[k] = view[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The History tab's view from the hash; undefined when it names none (or only values that are not times). */
function parseHistory(q: URLSearchParams): HistoryView | undefined {
  const view: HistoryView = {};
  for (const k of HISTORY_KEYS) {
    const v = q.get(k);
    if (isMoment(v)) view[k] = v;
  }
  return Object.keys(view).length > 0 ? view : undefined;
}

export function parseHash(hash: string): Route {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const kind = q.get('kind');
  const area = q.get('area');
  const tab = q.get('tab');
  const sel = q.get('sel');
  let selected: ResourceRef | null = null;
  if (sel) {
    // sel = kind/name or kind/namespace/name
    const parts = sel.split('/');
    const [kind, a, b] = parts;
    if (isKind(kind) && parts.length === 2 && a) selected = { kind, name: a };
    if (isKind(kind) && parts.length === 3 && a && b) selected = { kind, namespace: a, name: b };
  }
  const shownTab = TABS.includes(tab as DetailTab) ? (tab as DetailTab) : 'overview';
  const history = shownTab === 'history' ? parseHistory(q) : undefined;
  return {
    workspaceId: q.get('ws'),
    clusterId: q.get('cl'),
    area: AREAS.includes(area as Area) ? (area as Area) : 'resources',
    kind: isKind(kind) ? kind : 'pod',
    namespace: q.get('ns'),
    selected,
    tab: shownTab,
    ...(history ? { history } : {}),
  };
}

export function formatHash(r: Route): string {
  const q = new URLSearchParams();
  if (r.workspaceId) q.set('ws', r.workspaceId);
  if (r.clusterId) q.set('cl', r.clusterId);
  q.set('area', r.area);
  if (r.area === 'resources') {
    q.set('kind', r.kind);
    if (r.namespace) q.set('ns', r.namespace);
    if (r.selected) {
      const s = r.selected;
      q.set('sel', s.namespace ? `${s.kind}/${s.namespace}/${s.name}` : `${s.kind}/${s.name}`);
      q.set('tab', r.tab);
      if (r.tab === 'history') for (const k of HISTORY_KEYS) if (r.history?.[k]) q.set(k, r.history[k]);
    }
  }
  return `#${q.toString()}`;
}

const pick = (s: RouteState): Route => ({
  workspaceId: s.workspaceId,
  clusterId: s.clusterId,
  area: s.area,
  kind: s.kind,
  namespace: s.namespace,
  selected: s.selected,
  tab: s.tab,
  ...(s.history ? { history: s.history } : {}),
});

export const useRoute = create<RouteState>()((set) => ({
  ...parseHash(typeof window === 'undefined' ? '' : window.location.hash),
  focus: null,
  pending: null,
  logs: { previous: false },
  go: (patch) => set(patch),
  openList: (kind, namespace, selector) => {
    // "Pods of this deployment" arrives as a selector: it replaces the list's filters so the result is exactly that.
    if (selector !== undefined) useLists.getState().update(kind, { selectorText: selector, nameFilter: '' });
    const keep = namespace === undefined || CLUSTER_SCOPED_BUILT_IN.has(kind);
    set({ area: 'resources', kind, ...(keep ? {} : { namespace }), selected: null });
  },
  setNamespace: (namespace) => set({ namespace }),
  select: (ref, tab) =>
    set({ area: 'resources', selected: ref, tab: tab ?? 'overview', focus: null, history: undefined }),
  setTab: (tab) => set({ tab }),
  openHistory: (ref, view) =>
    set({ area: 'resources', selected: ref, tab: 'history', focus: null, history: viewOf(view) }),
  setHistory: (view) => set({ history: viewOf(view) }),
  focusSection: (section, tab = 'overview') => set({ tab, focus: { section, nonce: Date.now() } }),
  openLogs: (req) => set({ tab: 'logs', logs: req }),
  openWithAction: (ref, action, container) =>
    set({
      area: 'resources',
      selected: ref,
      tab: 'overview',
      focus: null,
      pending: { action, ...(container ? { container } : {}), nonce: Date.now() },
    }),
  clearPending: () => set({ pending: null }),
}));

/** Keeps location.hash and the store in step, both ways; pushes history only when the place changes. */
export function syncRouteWithHash(): () => void {
  let last = window.location.hash;
  const unsubscribe = useRoute.subscribe((s) => {
    const next = formatHash(pick(s));
    if (next !== last) {
      last = next;
      window.history.pushState(null, '', next);
    }
  });
  const onPop = () => {
    last = window.location.hash;
    // A hash without a History view clears the one held (Back from a diff to the list).
    useRoute.setState({ history: undefined, ...parseHash(last) });
  };
  window.addEventListener('popstate', onPop);
  return () => {
    unsubscribe();
    window.removeEventListener('popstate', onPop);
  };
}
