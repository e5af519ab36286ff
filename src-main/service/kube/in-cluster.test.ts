/**
 * The pod's own cluster as a context (kube/in-cluster.ts): when it is on, what is missing when it
 * cannot be, and the context it makes from the service-account folder.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InClusterError,
  inClusterMissing,
  inClusterSource,
  SERVICE_ACCOUNT_DIR,
  serviceAccountDir,
  wantsInCluster,
} from './in-cluster';

let dir: string;
let sa: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-sa-'));
  sa = join(dir, 'sa');
  await mkdir(sa);
  await writeFile(join(sa, 'token'), 't');
  await writeFile(join(sa, 'ca.crt'), 'c');
  await writeFile(join(sa, 'namespace'), ' skiff \n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const pod = () => ({
  KUBERNETES_SERVICE_HOST: '10.96.0.1',
  KUBERNETES_SERVICE_PORT: '6443',
  SKIFF_SERVICE_ACCOUNT_DIR: sa,
});

describe('in-cluster', () => {
  it('reads the service account from the kubelet folder unless SKIFF_SERVICE_ACCOUNT_DIR says otherwise', () => {
    expect(serviceAccountDir({})).toBe('/var/run/secrets/kubernetes.io/serviceaccount');
    expect(serviceAccountDir({ SKIFF_SERVICE_ACCOUNT_DIR: '' })).toBe(SERVICE_ACCOUNT_DIR);
    expect(serviceAccountDir({ SKIFF_SERVICE_ACCOUNT_DIR: sa })).toBe(sa);
  });

  it('says what is missing: the host, the token, the CA', async () => {
    expect(inClusterMissing({ SKIFF_SERVICE_ACCOUNT_DIR: sa })).toBe(
      '$KUBERNETES_SERVICE_HOST is not set (not in a pod?)',
    );
    expect(inClusterMissing(pod())).toBeNull();
    const empty = join(dir, 'empty');
    await mkdir(empty, { recursive: true });
    expect(inClusterMissing({ ...pod(), SKIFF_SERVICE_ACCOUNT_DIR: empty })).toBe(
      `the service account's token is not in ${empty}`,
    );
    await writeFile(join(empty, 'token'), 't');
    expect(inClusterMissing({ ...pod(), SKIFF_SERVICE_ACCOUNT_DIR: empty })).toBe(
      `the service account's ca.crt is not in ${empty}`,
    );
  });

  it('is on when it can work unless refused; asked for where it cannot, it is an error', () => {
    expect(wantsInCluster(undefined, pod())).toBe(true);
    expect(wantsInCluster(true, pod())).toBe(true);
    expect(wantsInCluster(false, pod())).toBe(false);
    expect(wantsInCluster(undefined, {})).toBe(false);
    expect(wantsInCluster(false, {})).toBe(false);
    expect(() => wantsInCluster(true, {})).toThrow(
      new InClusterError('--in-cluster: $KUBERNETES_SERVICE_HOST is not set (not in a pod?)'),
    );
  });

  it('makes a context: https to the service host, the CA file trusted, the token file sent, the namespace set', () => {
    expect(inClusterSource('home', pod())).toEqual({
      context: 'home',
      server: 'https://10.96.0.1:6443',
      config: {
        context: { name: 'home', cluster: 'home', user: 'home', namespace: 'skiff' },
        cluster: {
          name: 'home',
          server: 'https://10.96.0.1:6443',
          caFile: join(sa, 'ca.crt'),
          skipTLSVerify: false,
        },
        user: { name: 'home', tokenFile: join(sa, 'token') },
      },
    });
  });

  it('brackets an IPv6 host, defaults the port to 443, and leaves the namespace out when there is none', async () => {
    const bare = join(dir, 'bare');
    await mkdir(bare, { recursive: true });
    const v6 = inClusterSource('c', { KUBERNETES_SERVICE_HOST: 'fd00::1', SKIFF_SERVICE_ACCOUNT_DIR: bare });
    expect(v6.server).toBe('https://[fd00::1]:443');
    expect(inClusterSource('c', { SKIFF_SERVICE_ACCOUNT_DIR: bare }).server).toBe(
      'https://kubernetes.default.svc:443',
    );
    expect(v6.config.context).toEqual({ name: 'c', cluster: 'c', user: 'c' });
    await writeFile(join(bare, 'namespace'), '\n');
    expect(
      inClusterSource('c', { KUBERNETES_SERVICE_HOST: 'h', SKIFF_SERVICE_ACCOUNT_DIR: bare }).config.context,
    ).toEqual({
      name: 'c',
      cluster: 'c',
      user: 'c',
    });
  });
});
