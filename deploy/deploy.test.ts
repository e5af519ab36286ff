/**
 * deploy/ as Kubernetes will see it: `kubectl kustomize` renders the base and every overlay (the
 * real kubectl on the PATH, skipped with the reason where it is absent), and the rendered objects
 * are checked for what issue 25 asks of them: the restricted security context of every container,
 * probes on the service's port, two spread replicas, a PDB and a NetworkPolicy that select the
 * pods, a read-only ClusterRole with pods/log and metrics.k8s.io, the recorder's Lease Role, and
 * credentials from a Secret. Nothing here needs a cluster: `kubectl kustomize` works offline.
 * Each check is also run on a broken copy, so a check that cannot fail fails here.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../src-main/cli/args';
import {
  type Container,
  containerProblems,
  DEPLOY_DIR,
  find,
  isAccessReview,
  type KubeObject,
  kubectlMissing,
  type Labels,
  podLabelsOf,
  podSpecOf,
  readOnlyProblems,
  render,
  selects,
  verbsOn,
  workloads,
} from './manifest-checks.test-support';

const missing = kubectlMissing();
const OVERLAYS = readdirSync(join(DEPLOY_DIR, 'overlays')).map((d) => `overlays/${d}`);
const RENDER_TIMEOUT = 180_000;

/** A deep copy to break on purpose. */
const copy = <T>(v: T): T => structuredClone(v);

function skiffContainer(objects: readonly KubeObject[]): Container {
  const c = podSpecOf(find(objects, 'Deployment', 'skiff')).containers.find((x) => x.name === 'skiff');
  if (!c) throw new Error('no container skiff');
  return c;
}

/** The container port a probe or Service names, by name or number. */
function portNumber(c: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

describe.skipIf(missing !== null)(
  `kubectl kustomize deploy${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    const renders = new Map<string, KubeObject[]>();
    beforeAll(async () => {
      for (const dir of ['.', ...OVERLAYS]) renders.set(dir, await render(dir));
    }, RENDER_TIMEOUT);
    const base = () => renders.get('.')!;

    it('has the overlays this test knows of', () => {
      expect(OVERLAYS).toEqual(
        expect.arrayContaining([
          'overlays/try-postgres',
          'overlays/ingress-tls',
          'overlays/read-secrets',
          'overlays/oidc',
        ]),
      );
    });

    describe.each(['.', ...OVERLAYS])('%s', (dir) => {
      const objects = () => renders.get(dir)!;

      it('puts every namespaced object in the skiff namespace', () => {
        const cluster = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding']);
        const stray = objects()
          .filter((o) => !cluster.has(o.kind) && o.metadata.namespace !== 'skiff')
          .map((o) => `${o.kind}/${o.metadata.name}`);
        expect(stray).toEqual([]);
      });

      it('gives every container of every workload the restricted security context and resources', () => {
        const all = workloads(objects());
        expect(all.length).toBeGreaterThan(0);
        for (const w of all)
          expect(containerProblems(`${w.kind} ${w.metadata.name}`, podSpecOf(w))).toEqual([]);
      });

      it('grants only read verbs in every ClusterRole', () => {
        const roles = objects().filter((o) => o.kind === 'ClusterRole');
        expect(roles.length).toBeGreaterThan(0);
        for (const r of roles)
          expect(readOnlyProblems(r, { secrets: r.metadata.name === 'skiff-read-secrets' })).toEqual([]);
      });

      it('records every cluster on every replica, so the recorder lease always has a live taker', () => {
        // With `viewed`, a replica offers to record only clusters it was asked about: after the
        // recorder dies, nobody records a cluster until someone views it through another replica.
        const args = skiffContainer(objects()).args ?? [];
        expect(args.filter((a) => a.startsWith('--record-events'))).toEqual(['--record-events=all']);
      });

      it("names each replica by its pod, so /v1/health's replica is what kubectl get pods shows", () => {
        const c = skiffContainer(objects());
        const id = c.env?.filter((e) => e.name === 'SKIFF_REPLICA_ID') ?? [];
        expect(id).toEqual([
          { name: 'SKIFF_REPLICA_ID', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        ]);
        expect((c.args ?? []).filter((a) => a.startsWith('--replica-id'))).toEqual([]);
      });

      it("starts serve as such: the real argument parser takes the container's arguments and environment", () => {
        // A Deployment's pod name: its ReplicaSet's name and five characters, at most 63 in all.
        const pod = `${'s'.repeat(52)}-7c9d8b6f5d-x2k4p`;
        const opts = parseServeArgs(skiffContainer(objects()).args ?? [], {
          dataDir: '/unused',
          database: 'postgres://skiff:pw@db.example.com:5432/skiff',
          replicaId: pod,
          // What SKIFF_OIDC_CLIENT_SECRET holds where an overlay signs in with a provider.
          oidcClientSecret: 'from-the-skiff-oidc-secret',
        });
        expect(opts.eventHistory.record).toBe('all');
        expect(opts.replicaId).toBe(pod);
      });

      it("selects the Deployment's pods with its PDB and NetworkPolicy", () => {
        const pods = podLabelsOf(find(objects(), 'Deployment', 'skiff'));
        const pdb = find(objects(), 'PodDisruptionBudget', 'skiff');
        expect(selects(pdb.spec?.selector?.matchLabels as Labels, pods)).toBe(true);
        expect(selects(find(objects(), 'NetworkPolicy', 'skiff').spec?.podSelector?.matchLabels, pods)).toBe(
          true,
        );
      });
    });

    describe('the base', () => {
      it('enforces the restricted Pod Security Standard on the namespace', () => {
        const ns = find(base(), 'Namespace', 'skiff');
        expect(ns.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
      });

      it('runs two replicas spread over nodes and zones', () => {
        const d = find(base(), 'Deployment', 'skiff');
        expect(d.spec?.replicas).toBe(2);
        const pod = podSpecOf(d);
        const spread = pod.topologySpreadConstraints ?? [];
        expect(spread.map((s) => s.topologyKey).sort()).toEqual([
          'kubernetes.io/hostname',
          'topology.kubernetes.io/zone',
        ]);
        for (const s of spread) expect(selects(s.labelSelector?.matchLabels, podLabelsOf(d))).toBe(true);
        expect(selects(d.spec?.selector?.matchLabels as Labels, podLabelsOf(d))).toBe(true);
      });

      it('probes readiness on /v1/health/ready and liveness on /v1/health, on the port it listens on', () => {
        const c = skiffContainer(base());
        expect(c.readinessProbe?.httpGet?.path).toBe('/v1/health/ready');
        expect(c.livenessProbe?.httpGet?.path).toBe('/v1/health');
        const listens = Number(
          /^--port=(\d+)$/.exec(c.args?.find((a) => a.startsWith('--port=')) ?? '')?.[1],
        );
        expect(listens).toBe(7733);
        for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe])
          expect(portNumber(c, probe?.httpGet?.port)).toBe(listens);
        expect(c.args).toContain('--host=0.0.0.0');
      });

      it("fits the pre-stop pause and the shutdown grace inside the pod's grace period, with time to close", () => {
        const d = find(base(), 'Deployment', 'skiff');
        const c = skiffContainer(base());
        const grace = /^--shutdown-grace=(\d+)s$/.exec(
          c.args?.find((a) => a.startsWith('--shutdown-grace=')) ?? '',
        );
        // The kubelet counts the pre-stop hook inside terminationGracePeriodSeconds, then SIGKILLs.
        const preStop = c.lifecycle?.preStop?.sleep?.seconds ?? 0;
        const shutdownGrace = grace ? Number(grace[1]) : 20;
        expect(preStop + shutdownGrace + 5).toBeLessThanOrEqual(
          podSpecOf(d).terminationGracePeriodSeconds ?? 30,
        );
      });

      it('serves the port through the Service, the only port the NetworkPolicy lets in', () => {
        const c = skiffContainer(base());
        const svc = find(base(), 'Service', 'skiff');
        expect(selects(svc.spec?.selector as Labels, podLabelsOf(find(base(), 'Deployment', 'skiff')))).toBe(
          true,
        );
        expect(svc.spec?.ports?.map((p) => portNumber(c, p.targetPort))).toEqual([7733]);
        const np = find(base(), 'NetworkPolicy', 'skiff');
        expect(np.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
        const inPorts = (np.spec?.ingress ?? []).flatMap((r) => r.ports ?? []);
        expect(inPorts.map((p) => portNumber(c, p.port))).toEqual([7733]);
      });

      it('lets Skiff out to DNS, the apiserver and PostgreSQL only', () => {
        const np = find(base(), 'NetworkPolicy', 'skiff');
        const out = (np.spec?.egress ?? []).flatMap((r) =>
          (r.ports ?? []).map((p) => `${p.port}/${p.protocol}`),
        );
        expect(out.sort()).toEqual(['443/TCP', '53/TCP', '53/UDP', '5432/TCP', '6443/TCP']);
        const dns = np.spec?.egress?.find((r) => r.ports?.some((p) => p.port === 53));
        expect(dns?.to?.[0]?.podSelector?.matchLabels).toEqual({ 'k8s-app': 'kube-dns' });
      });

      it('keeps a PDB of one', () => {
        expect(find(base(), 'PodDisruptionBudget', 'skiff').spec?.minAvailable).toBe(1);
      });

      it('reads the database URL and the secret key from the Secret, never from arguments', () => {
        const c = skiffContainer(base());
        const fromSecret = Object.fromEntries(
          (c.env ?? []).map((e) => [e.name, e.valueFrom?.secretKeyRef ?? null]),
        );
        expect(fromSecret).toMatchObject({
          SKIFF_DATABASE_URL: { name: 'skiff', key: 'database-url' },
          SKIFF_SECRET_KEY: { name: 'skiff', key: 'secret-key' },
        });
        expect((c.args ?? []).filter((a) => /database|secret|postgres/i.test(a))).toEqual([]);
        // A Service named skiff would set SKIFF_PORT and friends in the environment.
        expect(podSpecOf(find(base(), 'Deployment', 'skiff')).enableServiceLinks).toBe(false);
      });

      it('binds a read-only ClusterRole with pods/log and metrics.k8s.io, without Secrets', () => {
        const role = find(base(), 'ClusterRole', 'skiff-read');
        expect([...verbsOn(role, '', 'pods/log')]).toContain('get');
        expect([...verbsOn(role, 'metrics.k8s.io', 'pods')].sort()).toEqual(['get', 'list']);
        expect([...verbsOn(role, 'metrics.k8s.io', 'nodes')].sort()).toEqual(['get', 'list']);
        for (const [group, resource] of [
          ['', 'pods'],
          ['', 'events'],
          ['apps', 'deployments'],
          ['batch', 'cronjobs'],
          ['networking.k8s.io', 'ingresses'],
          ['policy', 'poddisruptionbudgets'],
          ['autoscaling', 'horizontalpodautoscalers'],
          ['storage.k8s.io', 'storageclasses'],
          ['rbac.authorization.k8s.io', 'clusterroles'],
          ['apiextensions.k8s.io', 'customresourcedefinitions'],
          ['apiregistration.k8s.io', 'apiservices'],
          ['discovery.k8s.io', 'endpointslices'],
          ['events.k8s.io', 'events'],
          ['coordination.k8s.io', 'leases'],
        ] as const)
          expect([...verbsOn(role, group, resource)].sort(), `${group}/${resource}`).toEqual([
            'get',
            'list',
            'watch',
          ]);
        expect(verbsOn(role, '', 'secrets').size).toBe(0);
        // --authorize rbac asks the apiserver about each user's reads; the review stores nothing.
        expect([...verbsOn(role, 'authorization.k8s.io', 'subjectaccessreviews')]).toEqual(['create']);
        expect(verbsOn(role, 'authorization.k8s.io', 'selfsubjectaccessreviews').size).toBe(0);
        const binding = find(base(), 'ClusterRoleBinding', 'skiff-read');
        expect(binding.roleRef).toMatchObject({ kind: 'ClusterRole', name: 'skiff-read' });
        const sa = podSpecOf(find(base(), 'Deployment', 'skiff')).serviceAccountName;
        expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: sa, namespace: 'skiff' }]);
        find(base(), 'ServiceAccount', sa ?? '');
      });

      it('writes Leases in its own namespace only, through a Role', () => {
        const role = find(base(), 'Role', 'skiff-recorder-lease');
        expect(role.metadata.namespace).toBe('skiff');
        expect([...verbsOn(role, 'coordination.k8s.io', 'leases')].sort()).toEqual([
          'create',
          'get',
          'update',
        ]);
        const binding = find(base(), 'RoleBinding', 'skiff-recorder-lease');
        expect(binding.roleRef).toMatchObject({ kind: 'Role', name: 'skiff-recorder-lease' });
        expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'skiff', namespace: 'skiff' }]);
        const writers = base().filter(
          (o) =>
            o.kind === 'ClusterRole' &&
            o.rules?.some((r) =>
              r.verbs.some((v) => v !== 'get' && v !== 'list' && v !== 'watch' && !isAccessReview(r, v)),
            ),
        );
        expect(writers).toEqual([]);
      });
    });

    describe('overlays/try-postgres', () => {
      const objects = () => renders.get('overlays/try-postgres')!;

      it('makes the Secret the Deployment reads, pointing at its own PostgreSQL Service', () => {
        const ref = skiffContainer(objects()).env?.find((e) => e.name === 'SKIFF_DATABASE_URL')?.valueFrom
          ?.secretKeyRef;
        expect(ref?.name).toMatch(/^skiff-/);
        const secret = find(objects(), 'Secret', ref?.name ?? '');
        expect(Object.keys(secret.data ?? {}).sort()).toEqual(['database-url', 'secret-key']);
        const url = new URL(Buffer.from(secret.data?.['database-url'] ?? '', 'base64').toString());
        expect(url.protocol).toBe('postgres:');
        const [svcName, ns] = url.hostname.split('.');
        expect(ns).toBe('skiff');
        const svc = find(objects(), 'Service', svcName ?? '');
        expect(svc.spec?.ports?.map((p) => p.port)).toContain(Number(url.port));
        const sts = find(objects(), 'StatefulSet', 'postgresql');
        expect(selects(svc.spec?.selector as Labels, podLabelsOf(sts))).toBe(true);
        const pgPassword = podSpecOf(sts).containers[0]?.env?.find((e) => e.name === 'POSTGRES_PASSWORD');
        const pgSecret = find(objects(), 'Secret', pgPassword?.valueFrom?.secretKeyRef?.name ?? '');
        expect(Buffer.from(pgSecret.data?.password ?? '', 'base64').toString()).toBe(url.password);
      });

      it('lets only Skiff reach PostgreSQL, and Skiff reach only this PostgreSQL on 5432', () => {
        const skiffPods = podLabelsOf(find(objects(), 'Deployment', 'skiff'));
        const pgPods = podLabelsOf(find(objects(), 'StatefulSet', 'postgresql'));
        const pg = find(objects(), 'NetworkPolicy', 'postgresql');
        expect(selects(pg.spec?.podSelector?.matchLabels, pgPods)).toBe(true);
        const from = (pg.spec?.ingress ?? []).flatMap((r) => r.from ?? []);
        expect(from.length).toBeGreaterThan(0);
        for (const peer of from) expect(selects(peer.podSelector?.matchLabels, skiffPods)).toBe(true);
        expect(pg.spec?.egress).toEqual([]);
        const toPg = find(objects(), 'NetworkPolicy', 'skiff').spec?.egress?.find((r) =>
          r.ports?.some((p) => p.port === 5432),
        );
        expect(toPg?.to?.map((peer) => selects(peer.podSelector?.matchLabels, pgPods))).toEqual([true]);
      });
    });

    it('overlays/read-secrets adds read verbs on Secrets, and nothing else', () => {
      const objects = renders.get('overlays/read-secrets')!;
      const role = find(objects, 'ClusterRole', 'skiff-read-secrets');
      expect([...verbsOn(role, '', 'secrets')].sort()).toEqual(['get', 'list', 'watch']);
      expect(role.rules).toHaveLength(1);
      expect(find(objects, 'ClusterRoleBinding', 'skiff-read-secrets').subjects).toEqual([
        { kind: 'ServiceAccount', name: 'skiff', namespace: 'skiff' },
      ]);
      expect(objects.length).toBe(base().length + 2);
    });

    it('overlays/ingress-tls routes its host to the Service and lets Skiff answer to that host', () => {
      const objects = renders.get('overlays/ingress-tls')!;
      const ing = find(objects, 'Ingress', 'skiff');
      const host = ing.spec?.rules?.[0]?.host ?? '';
      expect(ing.spec?.tls?.[0]?.hosts).toEqual([host]);
      const backend = ing.spec?.rules?.[0]?.http?.paths[0]?.backend.service;
      const svc = find(objects, 'Service', backend?.name ?? '');
      expect(svc.spec?.ports?.map((p) => p.name)).toContain(backend?.port.name);
      const args = skiffContainer(objects).args ?? [];
      expect(args).toEqual(
        expect.arrayContaining([`--allowed-host=${host}`, `--public-url=https://${host}`]),
      );
      expect(args.some((a) => a.startsWith('--trust-proxy='))).toBe(true);
    });

    it('overlays/oidc signs in with the provider at its public URL, the client secret from a Secret, reads checked by RBAC', () => {
      const objects = renders.get('overlays/oidc')!;
      const c = skiffContainer(objects);
      const args = c.args ?? [];
      expect(args.filter((a) => /secret/i.test(a))).toEqual([]);
      expect(c.env?.find((e) => e.name === 'SKIFF_OIDC_CLIENT_SECRET')?.valueFrom?.secretKeyRef).toEqual({
        name: 'skiff-oidc',
        key: 'client-secret',
      });
      const opts = parseServeArgs(args, {
        dataDir: '/unused',
        database: 'postgres://skiff:pw@db.example.com:5432/skiff',
        oidcClientSecret: 'from-the-skiff-oidc-secret',
      });
      expect(opts.oidc).toMatchObject({
        issuer: 'https://dex.example.com',
        clientId: 'skiff',
        clientSecret: 'from-the-skiff-oidc-secret',
        scopes: ['openid', 'profile', 'email', 'groups', 'offline_access'],
        adminGroups: ['platform-admins'],
      });
      expect(opts.authorize).toBeDefined();
      expect(args).toContain('--public-url=https://skiff.example.com');
      // The provider is reached on 443, which the base's NetworkPolicy already lets out.
      const np = find(objects, 'NetworkPolicy', 'skiff');
      expect(np.spec?.egress?.some((r) => !r.to && r.ports?.some((p) => p.port === 443))).toBe(true);
    });

    describe('the checks catch a broken manifest', () => {
      it('a container that may escalate, writes its root filesystem or keeps capabilities', () => {
        const d = copy(find(base(), 'Deployment', 'skiff'));
        const pod = podSpecOf(d);
        const ctx = pod.containers[0]!.securityContext!;
        ctx.allowPrivilegeEscalation = true;
        ctx.readOnlyRootFilesystem = false;
        ctx.capabilities = { drop: ['NET_RAW'] };
        delete ctx.seccompProfile;
        delete pod.securityContext?.seccompProfile;
        expect(containerProblems('Deployment skiff', pod)).toHaveLength(4);
        delete ctx.runAsNonRoot;
        delete pod.securityContext?.runAsNonRoot;
        delete pod.containers[0]!.resources;
        expect(containerProblems('Deployment skiff', pod)).toHaveLength(7);
      });

      it('a ClusterRole that writes, uses a wildcard or reads Secrets', () => {
        const role = copy(find(base(), 'ClusterRole', 'skiff-read'));
        role.rules![0]!.verbs.push('delete');
        role.rules![1]!.resources = ['*'];
        role.rules![2]!.resources!.push('secrets');
        role.rules![2]!.apiGroups = [''];
        expect(readOnlyProblems(role, { secrets: false })).toHaveLength(3);
      });

      it('a selector that misses the pods', () => {
        const labels = podLabelsOf(find(base(), 'Deployment', 'skiff'));
        expect(selects({ ...labels, 'app.kubernetes.io/name': 'other' }, labels)).toBe(false);
        expect(selects({}, labels)).toBe(false);
      });
    });
  },
);
