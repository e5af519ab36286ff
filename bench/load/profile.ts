import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The .cpuprofile format V8 writes for --cpu-prof. */
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileRow {
  frame: string;
  /** Share of the busy samples in the window, in percent. */
  self: number;
  /** Share of the busy samples with this frame anywhere on the stack, in percent. */
  total: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  /** The functions the most time was spent in. */
  top: ProfileRow[];
  /** The same by where the code lives: a package, Node's internals, the service's own code. */
  byPlace: ProfileRow[];
}

// '(program)' is native work outside any JS frame (the HTTP parser, I/O callbacks): busy, not idle.
const NOT_BUSY = new Set(['(idle)']);

function placeOf(f: CallFrame): string {
  if (f.url === '') return f.functionName.startsWith('(') ? f.functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f.url);
  if (pkg) return pkg[1]!;
  if (f.url.startsWith('node:')) return 'node internals';
  if (f.url.includes('/out/service/')) return 'service (out/service)';
  return f.url;
}

function frameOf(f: CallFrame): string {
  const where = f.url
    ? ` ${f.url.replace(/^.*\/(node_modules|out\/service)\//, '$1/')}:${f.lineNumber + 1}`
    : '';
  return `${f.functionName || '(anonymous)'}${where}`;
}

/**
 * Reads the newest .cpuprofile in `dir` and summarises the samples taken in the last
 * `windowMs` before `tailMs` from its end: the load, leaving out start-up and cache filling.
 */
export function summariseProfile(dir: string, windowMs: number, tailMs: number, rows = 15): ProfileSummary {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // A native function says little alone ("(anonymous)", "writev"): name the JS code that called it.
  const selfKey = (leaf: ProfileNode): string => {
    const name = frameOf(leaf.callFrame);
    if (leaf.callFrame.url !== '' || leaf.callFrame.functionName.startsWith('(')) return name;
    for (let id = parent.get(leaf.id); id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      if (f.url !== '') return `${name} ← ${frameOf(f)}`;
    }
    return name;
  };
  const to = profile.endTime - tailMs * 1000;
  const from = to - windowMs * 1000;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const placeSelf = new Map<string, number>();
  const placeTotal = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  let t = profile.startTime;
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < from || t > to) continue;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const leaf = byId.get(profile.samples[i]!)!;
    if (NOT_BUSY.has(leaf.callFrame.functionName)) {
      idle += dt;
      continue;
    }
    busy += dt;
    add(self, selfKey(leaf), dt);
    add(placeSelf, placeOf(leaf.callFrame), dt);
    const frames = new Set<string>();
    const places = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      if (f.functionName === '(root)') break;
      frames.add(frameOf(f));
      places.add(placeOf(f));
    }
    for (const f of frames) add(total, f, dt);
    for (const p of places) add(placeTotal, p, dt);
  }
  const pct = (v: number) => (busy ? (100 * v) / busy : 0);
  const rank = (s: Map<string, number>, tot: Map<string, number>) =>
    [...s.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([frame, v]) => ({ frame, self: pct(v), total: pct(tot.get(frame) ?? v) }));
  return {
    busyMs: busy / 1000,
    idleMs: idle / 1000,
    top: rank(self, total),
    byPlace: rank(placeSelf, placeTotal),
  };
}
