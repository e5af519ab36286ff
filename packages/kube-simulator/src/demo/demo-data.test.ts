import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { harness } from '../harness.test-support';
import { DEMO_NAMESPACES, DEMO_PODS, startSimulator } from '../index';
import type { Pod } from '../types';
import { buildDemo } from './';

const NOW = Date.parse('2025-03-04T05:06:07Z');

describe('demo data', () => {
  it('is deterministic for a seed and keeps notable names across seeds', () => {
    const a = buildDemo({ seed: 7, now: NOW });
    const b = buildDemo({ seed: 7, now: NOW });
    const c = buildDemo({ seed: 8, now: NOW });
    // Compared as a boolean: a failing diff of the whole cluster would flood the output.
    expect(JSON.stringify(a.objects) === JSON.stringify(b.objects)).toBe(true);
    const names = (d: typeof a) =>
      d.objects.filter((o) => o.kind === 'Pod').map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
    for (const p of Object.values(DEMO_PODS)) {
      expect(names(a)).toContain(`${p.namespace}/${p.name}`);
      expect(names(c)).toContain(`${p.namespace}/${p.name}`);
    }
    expect(new Set(a.objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name))).toEqual(
      new Set(DEMO_NAMESPACES),
    );
  });

  it('covers every pod state the issue asks for', () => {
    const pods = buildDemo({ seed: 1, now: NOW }).objects.filter((o): o is Pod => o.kind === 'Pod');
    const reasons = new Set<string>();
    for (const p of pods) {
      reasons.add(p.status.phase);
      for (const cs of p.status.containerStatuses ?? []) {
        const s = cs.state.waiting?.reason ?? cs.state.terminated?.reason;
        if (s) reasons.add(s);
        if (cs.lastState.terminated?.reason) reasons.add(`last:${cs.lastState.terminated.reason}`);
        if (cs.state.running && !cs.ready) reasons.add('running-not-ready');
      }
      if (p.status.conditions?.some((c) => c.reason === 'Unschedulable')) reasons.add('Unschedulable');
      if (p.spec.initContainers) reasons.add('init');
    }
    for (const r of [
      'Pending',
      'Running',
      'Succeeded',
      'Failed',
      'ErrImagePull',
      'ImagePullBackOff',
      'CrashLoopBackOff',
      'ContainerCreating',
      'CreateContainerConfigError',
      'Completed',
      'Error',
      'last:OOMKilled',
      'last:Error',
      'running-not-ready',
      'Unschedulable',
      'init',
    ]) {
      expect(reasons, r).toContain(r);
    }
    const oom = pods.find((p) => p.metadata.name === DEMO_PODS.oomKilled.name);
    expect(oom?.status.containerStatuses?.[0]?.lastState.terminated?.exitCode).toBe(137);
  });

  it('gives every object managedFields, a uid and a resourceVersion', () => {
    for (const o of buildDemo({ seed: 1, now: NOW }).objects) {
      expect(o.metadata.managedFields?.length, `${o.kind} ${o.metadata.name}`).toBeGreaterThan(0);
      expect(o.metadata.uid).toBeTruthy();
      expect(Number(o.metadata.resourceVersion)).toBeGreaterThan(0);
    }
  });
});

describe('scale', () => {
  // How fast it builds and pages is `npm run bench -- --only simulator` (bench/simulator-build.ts),
  // as ratios against a baseline of the same run: a wall-clock limit here failed on a busy machine.
  it('builds 10k pods and 100k events and pages through all of them', async () => {
    const { sim, kc } = await harness({ scale: { pods: 10_000, events: 100_000 } });
    try {
      expect(sim.store.count('pods')).toBe(10_000);
      expect(sim.store.count('events')).toBe(100_000);
      const core = kc.makeApiClient(CoreV1Api);
      const seen = new Set<string>();
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await core.listPodForAllNamespaces({
          limit: 1000,
          ...(token ? { _continue: token } : {}),
        });
        pages++;
        for (const p of page.items) seen.add(`${p.metadata?.namespace}/${p.metadata?.name}`);
        token = page.metadata?._continue;
      } while (token);
      // Every pod once: ten full pages, none repeated or skipped.
      expect(pages).toBe(10);
      expect(seen.size).toBe(10_000);
      const page = await core.listEventForAllNamespaces({ limit: 500 });
      expect(page.metadata?.remainingItemCount).toBe(99_500);
    } finally {
      await sim.close();
    }
  }, 60_000);

  it('can add nodes and namespaces', async () => {
    const sim = await startSimulator({ scale: { nodes: 6, namespaces: 12 } });
    try {
      expect(sim.store.count('nodes')).toBe(6);
      expect(sim.store.count('namespaces')).toBe(12);
    } finally {
      await sim.close();
    }
  });
});
