import { describe, expect, it } from 'vitest';
import { explainPod, type PodLike } from './explain-pod';

/** The steps of explainPod that name another object: claims, ConfigMaps and Secrets. */

const spec = {
  volumes: [
    { name: 'data', persistentVolumeClaim: { claimName: 'data-0' } },
    { name: 'config', configMap: { name: 'app-config' } },
    { name: 'extra', configMap: { name: 'extra', optional: true } },
  ],
  containers: [
    {
      name: 'app',
      env: [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db-credentials', key: 'password' } } }],
    },
  ],
};
const ns = 'demo-broken';
const claimRef = { resourceType: 'persistentvolumeclaim', namespace: ns, name: 'data-0' };
const configRef = { resourceType: 'configmap', namespace: ns, name: 'app-config' };
const secretRef = { resourceType: 'secret', namespace: ns, name: 'db-credentials' };

const pod = (status: PodLike['status']): PodLike => ({ metadata: { namespace: ns }, spec, status });

describe('explainPod: steps that name objects', () => {
  it('a Pending pod names each claim it mounts', () => {
    const f = explainPod(pod({ phase: 'Pending' }));
    expect(f[0]?.checks).toEqual([
      { text: 'PersistentVolumeClaim data-0 (volume "data") must be Bound.', ref: claimRef },
    ]);
  });

  it('a pod that is not Pending, or mounts no claim, has no such step', () => {
    expect(explainPod(pod({ phase: 'Running' }))[0]?.checks).toBeUndefined();
    expect(explainPod({ spec: {}, status: { phase: 'Pending' } })[0]?.checks).toBeUndefined();
  });

  it('a container stuck creating names the objects its volumes need, not those env needs, nor optional ones', () => {
    const f = explainPod(
      pod({
        phase: 'Pending',
        containerStatuses: [{ name: 'app', state: { waiting: { reason: 'ContainerCreating' } } }],
      }),
    );
    expect(f[1]?.checks).toEqual([
      { text: 'PersistentVolumeClaim data-0, used by volume "data".', ref: claimRef },
      { text: 'ConfigMap app-config, used by volume "config".', ref: configRef },
    ]);
  });

  it('a config error names what env needs first, then what its message names that env does not', () => {
    const message = 'secret "db-credentials" not found, configmap "flags" not found';
    const f = explainPod(
      pod({
        phase: 'Pending',
        containerStatuses: [
          { name: 'app', state: { waiting: { reason: 'CreateContainerConfigError', message } } },
        ],
      }),
    );
    expect(f[1]?.checks).toEqual([
      { text: 'Secret db-credentials, used by env PASSWORD of container app.', ref: secretRef },
      {
        text: 'ConfigMap flags is named in the message.',
        ref: { resourceType: 'configmap', namespace: ns, name: 'flags' },
      },
    ]);
  });

  it('other waiting reasons name nothing, whatever their message says', () => {
    const f = explainPod(
      pod({
        phase: 'Pending',
        containerStatuses: [
          { name: 'app', state: { waiting: { reason: 'ErrImagePull', message: 'secret "x" not found' } } },
        ],
      }),
    );
    expect(f[1]?.checks).toBeUndefined();
  });

  it('without a namespace the refs have none', () => {
    const f = explainPod({ spec, status: { phase: 'Pending' } });
    expect(f[0]?.checks?.[0]?.ref).toEqual({ resourceType: 'persistentvolumeclaim', name: 'data-0' });
  });
});
