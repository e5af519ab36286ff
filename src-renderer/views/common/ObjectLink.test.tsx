// @vitest-environment happy-dom
/**
 * An object link opens its object in the detail pane: with its namespace when it has one, without
 * one for a cluster-scoped object (or an empty namespace); the owner link of Metadata is one.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { useRoute } from '../../state/route';
import { OwnerLink } from '../resources/detail/Metadata';
import { ObjectLink } from './ObjectLink';

beforeEach(() => {
  useRoute.setState({ selected: null, area: 'resources' });
});
afterEach(cleanup);

describe('ObjectLink', () => {
  it('opens a namespaced object in its namespace', () => {
    render(
      <ObjectLink kind="configmap" name="app-config" namespace="shop">
        app-config
      </ObjectLink>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'app-config' }));
    expect(useRoute.getState().selected).toEqual({
      kind: 'configmap',
      namespace: 'shop',
      name: 'app-config',
    });
  });

  it('opens a cluster-scoped object, or one named with an empty namespace, without a namespace', () => {
    render(
      <>
        <ObjectLink kind="node" name="worker-1">
          worker-1
        </ObjectLink>
        <ObjectLink kind="storageclass" name="fast" namespace="">
          fast
        </ObjectLink>
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'worker-1' }));
    expect(useRoute.getState().selected).toEqual({ kind: 'node', name: 'worker-1' });
    fireEvent.click(screen.getByRole('button', { name: 'fast' }));
    expect(useRoute.getState().selected).toEqual({ kind: 'storageclass', name: 'fast' });
  });

  it('is how Metadata opens a pod’s controller, read as its Deployment', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-7d9f8-abcde',
        namespace: 'shop',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8', uid: 'u1', controller: true },
        ],
      },
    } as KubeObject;
    render(<OwnerLink obj={pod} />);
    fireEvent.click(screen.getByRole('button'));
    expect(useRoute.getState().selected).toEqual({ kind: 'deployment', namespace: 'shop', name: 'web' });
  });
});
