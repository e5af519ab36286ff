/**
 * The kinds one simulated cluster serves: the built-in table (resources.ts) plus the kinds of the
 * CustomResourceDefinitions its store holds, which come and go at run time. Every lookup the
 * store, the router and discovery make goes through here, so a kind is served exactly while it is
 * listed here. Lookups are map reads: the maps are rebuilt only when a CRD changes.
 */

import { GROUP_ORDER, type ResourceDef, SERVED } from './resources';

export class SimKinds {
  /** CRD name → the defs of its served versions, preferred first. */
  private readonly custom = new Map<string, readonly ResourceDef[]>();
  private all: readonly ResourceDef[] = [];
  private byKey = new Map<string, ResourceDef>();
  private byName = new Map<string, ResourceDef>();
  private byGroupKind = new Map<string, ResourceDef>();
  private byGvr = new Map<string, ResourceDef>();
  /** Bumped on every change, so a client's cached discovery can tell it is out of date. */
  generation = 0;

  constructor(private readonly builtIns: readonly ResourceDef[] = SERVED) {
    this.rebuild();
  }

  /** Every served kind and version: the built-ins, then the CRDs' by CRD name. */
  served(): readonly ResourceDef[] {
    return this.all;
  }

  /**
   * The groups in the order the apiserver lists them (built-in priority, then the rest by name),
   * each with its versions, preferred first.
   */
  groups(): { group: string; versions: string[] }[] {
    const versions = new Map<string, string[]>();
    for (const d of this.all) {
      const list = versions.get(d.group) ?? [];
      if (!list.includes(d.version)) list.push(d.version);
      versions.set(d.group, list);
    }
    const rank = (g: string) => {
      const at = GROUP_ORDER.indexOf(g);
      return at < 0 ? GROUP_ORDER.length : at;
    };
    return [...versions]
      .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map(([group, v]) => ({ group, versions: v }));
  }

  /**
   * A store table key, a plural ("pods"), a Kind ("Pod"), a singular ("pod") or a qualified
   * plural ("certificates.cert-manager.io"); built-ins win a name they share with a CRD.
   */
  resolve(name: string): ResourceDef | undefined {
    return this.byKey.get(name) ?? this.byName.get(name);
  }

  /** The stored kind of an object: by group and kind, else (no or unknown apiVersion) by kind. */
  forObject(apiVersion: string | undefined, kind: string): ResourceDef | undefined {
    const group = apiVersion?.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const d =
      (apiVersion !== undefined ? this.byGroupKind.get(`${group}/${kind}`) : undefined) ??
      this.byName.get(kind);
    if (!d) return undefined;
    return d.storage ? this.byKey.get(d.storage) : d;
  }

  /** The kind served at /api(s)/{group}/{version}/{resource}. */
  inGroup(group: string, version: string, resource: string): ResourceDef | undefined {
    return this.byGvr.get(`${group}/${version}/${resource}`);
  }

  /** Serves a CRD's versions (replacing what it served before). */
  setCustom(crdName: string, defs: readonly ResourceDef[]): void {
    this.custom.set(crdName, defs);
    this.rebuild();
  }

  removeCustom(crdName: string): readonly ResourceDef[] {
    const defs = this.custom.get(crdName) ?? [];
    this.custom.delete(crdName);
    this.rebuild();
    return defs;
  }

  private rebuild(): void {
    const customs = [...this.custom].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).flatMap(([, d]) => d);
    this.all = [...this.builtIns, ...customs];
    this.byKey = new Map();
    this.byName = new Map();
    this.byGroupKind = new Map();
    this.byGvr = new Map();
    const first = <K>(map: Map<K, ResourceDef>, key: K, d: ResourceDef) => {
      if (!map.has(key)) map.set(key, d);
    };
    for (const d of this.all) {
      if (!d.storage) first(this.byKey, d.key, d);
      first(this.byGvr, `${d.group}/${d.version}/${d.resource}`, d);
      first(this.byGroupKind, `${d.group}/${d.kind}`, d);
    }
    // Names in order of precedence, each pass over every kind before the next.
    for (const d of this.all) if (!d.storage) first(this.byName, d.resource, d);
    for (const d of this.all) if (!d.storage) first(this.byName, d.kind, d);
    for (const d of this.all) if (!d.storage) first(this.byName, d.singular, d);
    for (const d of this.all) if (d.group !== '') first(this.byName, `${d.resource}.${d.group}`, d);
    this.generation++;
  }
}
