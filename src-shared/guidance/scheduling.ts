/**
 * Parser for the scheduler's FailedScheduling message, e.g.
 * `0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint
 * {node.kubernetes.io/not-ready: }, 1 node(s) didn't match Pod's node affinity/selector.
 * preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`
 *
 * The format has changed across releases (taint text, "that the pod didn't tolerate"
 * after a comma, reasons without a count, doubled final dots), so parsing splits only
 * at commas outside {…} / […] and glues count-less fragments onto the previous reason.
 */

export type SchedulingReason = { count: number; reason: string; hint?: string };

export type FailedSchedulingInfo = {
  available: number;
  total: number;
  reasons: SchedulingReason[];
  /** The scheduler's verdict on evicting lower-priority pods, when the message has one. */
  preemption?: { message: string; available?: number; total?: number; reasons: SchedulingReason[] };
};

const HEAD = /^(\d+)\/(\d+) nodes are available(?::|\.|$)/;

type Rule = { test: RegExp; hint: (m: RegExpExecArray) => string };

// First match wins, so specific forms (volume affinity, well-known taints) precede generic ones.
const RULES: Rule[] = [
  {
    test: /^Insufficient (\S+)/,
    hint: (m) =>
      m[1]!.includes('/')
        ? `No node has ${m[1]} left; check the device plugin advertises it on the nodes and that other pods have not claimed it all.`
        : `No node has enough unrequested ${m[1]}: lower the ${m[1]} request, free room, or add nodes (requests count, not live usage).`,
  },
  {
    test: /volume node affinity conflict|no available volume zone/,
    hint: () =>
      "The pod's volume is pinned to a zone/node where the pod can't run; schedule in that zone, or use a WaitForFirstConsumer StorageClass for new volumes.",
  },
  {
    test: /node\.kubernetes\.io\/(not-ready|unreachable)/,
    hint: () => 'Those nodes are NotReady or unreachable; fix the nodes rather than tolerating the taint.',
  },
  {
    test: /node-role\.kubernetes\.io\/(control-plane|master)/,
    hint: () =>
      'Control-plane nodes are reserved for system pods; expected, and only a problem if they are your only nodes.',
  },
  {
    test: /node\.kubernetes\.io\/(memory|disk|pid)-pressure/,
    hint: (m) => `Those nodes are under ${m[1]} pressure and refuse new pods until it clears.`,
  },
  {
    test: /node\.kubernetes\.io\/unschedulable|were unschedulable/,
    hint: () => 'Those nodes are cordoned; `kubectl uncordon <node>` once maintenance is over.',
  },
  {
    test: /taint/,
    hint: () =>
      'Nodes carry a taint the pod does not tolerate; add a matching toleration or use other nodes (`kubectl describe node <node> | grep Taints`).',
  },
  {
    test: /didn't satisfy existing pods anti-affinity/,
    hint: () => 'Pods already on those nodes have anti-affinity that forbids this pod next to them.',
  },
  {
    test: /anti-affinity/,
    hint: () =>
      "The pod's anti-affinity rules out every node (often: more replicas than nodes/zones); add nodes or make it preferred instead of required.",
  },
  {
    test: /pod affinity/,
    hint: () =>
      'No node runs the pods this pod must be co-located with; check the affinity label selector and topologyKey.',
  },
  {
    test: /topology spread constraints/,
    hint: () =>
      'A DoNotSchedule topology spread constraint cannot be met; check maxSkew and that nodes carry the topologyKey label ("missing required label").',
  },
  {
    test: /node affinity|node selector|affinity\/selector/,
    hint: () =>
      "No node has the labels the pod's nodeSelector or required nodeAffinity asks for; compare with `kubectl get nodes --show-labels`.",
  },
  {
    test: /free ports/,
    hint: () =>
      'The requested hostPort is already taken on those nodes; drop hostPort or run at most one such pod per node.',
  },
  {
    test: /Too many pods/,
    hint: () => 'Those nodes are at their pod limit (kubelet maxPods or the CNI per-node IP limit).',
  },
  {
    test: /unbound immediate PersistentVolumeClaims/,
    hint: () =>
      'A PVC is not bound; check `kubectl get pvc` and its ProvisioningFailed/FailedBinding events.',
  },
  {
    test: /persistentvolumeclaim "([^"]*)" not found/,
    hint: (m) => `PVC "${m[1]}" does not exist in the namespace; create it or fix claimName.`,
  },
  {
    test: /didn't find available persistent volumes to bind/,
    hint: () => 'No PersistentVolume matches the claim (size, access mode, storageClassName, zone).',
  },
  {
    test: /exceed max volume count/,
    hint: () =>
      'Those nodes reached their volume attachment limit; spread the pods or use instance types that allow more volumes.',
  },
  {
    test: /enough free storage|storage capacity/,
    hint: () => 'Not enough local storage capacity for the requested volume on those nodes.',
  },
  {
    test: /Preemption is not helpful/,
    hint: () =>
      'Evicting lower-priority pods would not make the pod fit; the blocker is not capacity on those nodes.',
  },
  {
    test: /No preemption victims found/,
    hint: () => 'There are no lower-priority pods on those nodes to evict.',
  },
  {
    test: /being deleted/,
    hint: () => 'Those nodes are being deleted.',
  },
  {
    test: /no nodes available/,
    hint: () => 'The cluster has no schedulable nodes at all; check `kubectl get nodes`.',
  },
];

/** A one-sentence fix-it hint for one scheduler reason, if it is a known one. */
export function schedulingReasonHint(reason: string): string | undefined {
  for (const rule of RULES) {
    const m = rule.test.exec(reason);
    if (m) return rule.hint(m);
  }
  return undefined;
}

/** Splits at `sep` when not inside {…} or […] (taints and label sets contain commas). */
function splitTopLevel(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth > 0) depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      out.push(s.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

function stripEnd(s: string): string {
  return s.replace(/[\s.]+$/, '').trim();
}

function withHint(count: number, reason: string): SchedulingReason {
  const hint = schedulingReasonHint(reason);
  return hint ? { count, reason, hint } : { count, reason };
}

function parseReasons(body: string, failing: number): SchedulingReason[] {
  const reasons: SchedulingReason[] = [];
  for (const raw of splitTopLevel(stripEnd(body), ',')) {
    const piece = raw.trim();
    if (piece === '') continue;
    const m = /^(\d+)\s+(.+)$/s.exec(piece);
    const last = reasons.at(-1);
    if (m) reasons.push(withHint(Number(m[1]), stripEnd(m[2]!)));
    // Old format: "had taint {…}, that the pod didn't tolerate" — a continuation, not a new reason.
    else if (last) reasons[reasons.length - 1] = withHint(last.count, `${last.reason}, ${piece}`);
    // Newer pod-level reasons have no count ("pod has unbound immediate PersistentVolumeClaims").
    else reasons.push(withHint(failing, stripEnd(piece)));
  }
  return reasons;
}

export function parseFailedScheduling(message: string): FailedSchedulingInfo | null {
  const text = message.trim();
  if (/^no nodes available to schedule pods/i.test(text)) {
    return { available: 0, total: 0, reasons: [withHint(0, 'no nodes available to schedule pods')] };
  }
  const head = HEAD.exec(text);
  if (!head) return null;
  const available = Number(head[1]);
  const total = Number(head[2]);
  const [main = '', ...rest] = splitTopLevel(text.slice(head[0].length), 'preemption:');
  const info: FailedSchedulingInfo = { available, total, reasons: parseReasons(main, total - available) };
  if (rest.length > 0) {
    const pre = stripEnd(rest.join('preemption:'));
    const ph = HEAD.exec(pre);
    info.preemption = ph
      ? {
          message: pre,
          available: Number(ph[1]),
          total: Number(ph[2]),
          reasons: parseReasons(pre.slice(ph[0].length), Number(ph[2]) - Number(ph[1])),
        }
      : { message: pre, reasons: [] };
  }
  return info;
}
