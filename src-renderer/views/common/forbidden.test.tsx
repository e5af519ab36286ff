// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { ApiError } from '../../api/client';
import { forbiddenOf, forbiddenSentence } from './forbidden';
import { ProblemNotice, problemText } from './Problem';

/**
 * A 403 from `--authorize rbac` as the person reads it: which permission is missing, where, and
 * whom to ask, from the problem's `permission` member. Refusals that name no permission (or a
 * malformed one) keep the service's detail.
 */

afterEach(cleanup);

const refusal = (extra: Record<string, unknown>, code: Problem['code'] = 'forbidden', status = 403) =>
  new ApiError({
    type: 'https://skiff.dev/problems/forbidden',
    title: 'Forbidden',
    status,
    code,
    detail: 'user "skiff:alice" cannot list resource "pods" in API group "" in the namespace "kube-system"',
    ...extra,
  });

const listPods = { verb: 'list', group: '', resource: 'pods', namespace: 'kube-system' };

describe('forbiddenOf', () => {
  it('answers the permission of a 403 forbidden', () => {
    expect(forbiddenOf(refusal({ permission: listPods }))).toEqual(listPods);
  });

  it('answers nothing for a forbidden without a permission (a wrong current password)', () => {
    expect(forbiddenOf(refusal({}))).toBeUndefined();
  });

  it('answers nothing for a malformed permission', () => {
    expect(forbiddenOf(refusal({ permission: { verb: 'list' } }))).toBeUndefined();
    expect(forbiddenOf(refusal({ permission: { ...listPods, verb: '' } }))).toBeUndefined();
    expect(forbiddenOf(refusal({ permission: { ...listPods, namespace: 7 } }))).toBeUndefined();
  });

  it('answers nothing for another code or status, or for what is not an ApiError', () => {
    expect(forbiddenOf(refusal({ permission: listPods }, 'admin_required'))).toBeUndefined();
    expect(forbiddenOf(refusal({ permission: listPods }, 'forbidden', 401))).toBeUndefined();
    expect(forbiddenOf(new Error('forbidden'))).toBeUndefined();
    expect(forbiddenOf(undefined)).toBeUndefined();
  });
});

describe('forbiddenSentence', () => {
  it('says the verb, the resource and the namespace, and asks for a Role', () => {
    expect(forbiddenSentence(listPods)).toBe(
      "You don't have permission to list pods in namespace kube-system. Ask a cluster administrator for a Role that grants it.",
    );
  });

  it('says "read" for get, and names a non-core API group', () => {
    expect(
      forbiddenSentence({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'shop' }),
    ).toBe(
      "You don't have permission to read deployments (API group apps) in namespace shop. Ask a cluster administrator for a Role that grants it.",
    );
  });

  it('says logs for pods/log', () => {
    expect(
      forbiddenSentence({ verb: 'get', group: '', resource: 'pods', subresource: 'log', namespace: 'web' }),
    ).toBe(
      "You don't have permission to read the logs of pods in namespace web. Ask a cluster administrator for a Role that grants it.",
    );
  });

  it('keeps another subresource and another verb as they are', () => {
    expect(
      forbiddenSentence({ verb: 'create', group: '', resource: 'pods', subresource: 'exec', namespace: 'a' }),
    ).toBe(
      "You don't have permission to create pods/exec in namespace a. Ask a cluster administrator for a Role that grants it.",
    );
    expect(forbiddenSentence({ verb: 'watch', group: '', resource: 'events', namespace: 'a' })).toContain(
      'to watch events in namespace a.',
    );
  });

  it('names the object when the permission names one', () => {
    expect(
      forbiddenSentence({
        verb: 'get',
        group: '',
        resource: 'pods',
        subresource: 'log',
        namespace: 'a',
        name: 'web-1',
      }),
    ).toContain('to read the logs of pods "web-1" in namespace a.');
    expect(
      forbiddenSentence({
        verb: 'get',
        group: 'apps',
        resource: 'deployments',
        namespace: 'a',
        name: 'shop',
      }),
    ).toContain('to read deployments "shop" (API group apps) in namespace a.');
  });

  it('asks for a ClusterRole at the cluster scope', () => {
    expect(forbiddenSentence({ verb: 'list', group: '', resource: 'nodes' })).toBe(
      "You don't have permission to list nodes at the cluster scope. Ask a cluster administrator for a ClusterRole that grants it.",
    );
  });
});

describe('problems in the views', () => {
  it('problemText words a refusal with a permission, and keeps the detail of one without', () => {
    expect(problemText(refusal({ permission: listPods }))).toBe(forbiddenSentence(listPods));
    expect(problemText(refusal({}))).toContain('cannot list resource "pods"');
  });

  it('ProblemNotice says what may not be seen and that it fills in once granted', () => {
    render(<ProblemNotice error={refusal({ permission: listPods })} what="pods" />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain("You don't have permission to see pods");
    expect(alert.textContent).toContain(forbiddenSentence(listPods));
    expect(alert.textContent).toContain('once the permission is granted');
    expect(alert.textContent).not.toContain('Skiff retries by itself');
  });

  it('ProblemNotice keeps the generic notice for a forbidden without a permission', () => {
    render(<ProblemNotice error={refusal({})} what="pods" retrying={false} />);
    expect(screen.getByRole('alert').textContent).toContain('Could not load pods');
    expect(screen.queryByTestId('forbidden')).toBeNull();
  });
});
