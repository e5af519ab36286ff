import type { Request } from 'autocannon';
import { percentile } from '../stats';

export const KINDS = ['pod page', 'event page', 'single pod', 'sessions list'] as const;
export type Kind = (typeof KINDS)[number];

export interface MixTargets {
  /** /v1/workspaces/default/observability/<cluster> */
  cluster: string;
  pods: number;
  events: number;
  /** namespace/name of pods to fetch one at a time. */
  podNames: readonly string[];
}

export interface KindFigures {
  kind: Kind;
  requests: number;
  p50: number;
  p99: number;
  /** Count per status; anything but 200 is an error in this bench. */
  statuses: Record<string, number>;
}

const POD_PAGE = 50;
const EVENT_PAGE = 100;

/**
 * The request mix: each request picks one of the kinds with equal chance, and a page at a
 * random offset, so no cache in front of a single answer can flatter the figures. Each kind's
 * latency is taken from when its request is built to when its answer is complete (autocannon
 * builds a request just before sending it, one at a time per connection).
 */
export class Mix {
  private readonly latencies = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
  private readonly statuses = new Map<Kind, Record<string, number>>(KINDS.map((k) => [k, {}]));

  constructor(
    private readonly t: MixTargets,
    /** The kinds to draw from; all four by default. */
    private readonly kinds: readonly Kind[] = KINDS,
    private readonly random: () => number = Math.random,
  ) {}

  pathFor(kind: Kind): string {
    const { cluster } = this.t;
    const at = (n: number, page: number) => Math.floor(this.random() * Math.max(1, n - page + 1));
    switch (kind) {
      case 'pod page':
        return `${cluster}/kubernetes-proxy/pod?limit=${POD_PAGE}&offset=${at(this.t.pods, POD_PAGE)}`;
      case 'event page':
        return `${cluster}/kubernetes-events?limit=${EVENT_PAGE}&offset=${at(this.t.events, EVENT_PAGE)}`;
      case 'single pod': {
        const [ns, name] = this.t.podNames[Math.floor(this.random() * this.t.podNames.length)]!.split('/');
        return `${cluster}/kubernetes-proxy/namespaces/${ns}/pod/${name}`;
      }
      case 'sessions list':
        return '/v1/auth/sessions';
    }
  }

  /** The one autocannon request, rebuilt before every send. */
  request(): Request {
    return {
      method: 'GET',
      setupRequest: (req, context) => {
        const kind = this.kinds[Math.floor(this.random() * this.kinds.length)]!;
        context.kind = kind;
        context.sentAt = performance.now();
        return { ...req, path: this.pathFor(kind) };
      },
      onResponse: (status, _body, context) => {
        const kind = context.kind as Kind;
        this.latencies.get(kind)!.push(performance.now() - (context.sentAt as number));
        const s = this.statuses.get(kind)!;
        s[status] = (s[status] ?? 0) + 1;
      },
    };
  }

  figures(): KindFigures[] {
    return this.kinds.map((kind) => {
      const l = this.latencies.get(kind)!;
      return {
        kind,
        requests: l.length,
        p50: l.length ? percentile(l, 50) : Number.NaN,
        p99: l.length ? percentile(l, 99) : Number.NaN,
        statuses: this.statuses.get(kind)!,
      };
    });
  }
}
