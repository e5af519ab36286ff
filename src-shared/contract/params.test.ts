import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  anyResourceType,
  booleanParam,
  checkNameForKind,
  labelSelectorParam,
  MAX_PAGE_LIMIT,
  namespacedResourceType,
  objectNameParam,
  pageQuery,
  resourceNameParam,
} from './params';

/** The first issue of a refused value: the invoker turns it into the 400 (src-main/service/invoke.ts). */
function refusal(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  const issue = result.error!.issues[0]!;
  return { issue, params: (issue as { params?: Record<string, unknown> }).params ?? {} };
}

describe('page parameters', () => {
  it('limit accepts every whole number from 1 to the maximum, and defaults when absent', () => {
    expect(pageQuery.limit.parse(undefined)).toBe(20);
    expect(pageQuery.limit.parse('1')).toBe(1);
    expect(pageQuery.limit.parse('37')).toBe(37);
    expect(pageQuery.limit.parse(String(MAX_PAGE_LIMIT))).toBe(MAX_PAGE_LIMIT);
  });

  it('a limit outside 1 to the maximum is refused, naming limit and its range', () => {
    for (const bad of ['0', String(MAX_PAGE_LIMIT + 1)]) {
      const { issue } = refusal(pageQuery.limit, bad);
      // A custom issue's message is the 400's detail as written here (invoke.ts).
      expect(issue.code).toBe('custom');
      expect(issue.message).toContain('limit');
      expect(issue.message).toContain(`1 to ${MAX_PAGE_LIMIT}`);
    }
  });

  it('a limit that is not plain digits is refused, naming limit and its range', () => {
    for (const bad of ['', 'ten', '-1', '1.5', '1e3', ' 5', '+5']) {
      const { issue } = refusal(pageQuery.limit, bad);
      expect(issue.code).toBe('custom');
      expect(issue.message).toContain('limit');
      expect(issue.message).toContain(`1 to ${MAX_PAGE_LIMIT}`);
    }
  });

  it('offset starts at 0 and defaults to 0', () => {
    expect(pageQuery.offset.parse(undefined)).toBe(0);
    expect(pageQuery.offset.parse('0')).toBe(0);
    expect(pageQuery.offset.parse('12345')).toBe(12345);
    const { issue } = refusal(pageQuery.offset, '-3');
    expect(issue.code).toBe('custom');
    expect(issue.message).toContain('offset');
  });

  it('an offset past the largest safe integer is refused', () => {
    expect(pageQuery.offset.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    const { issue } = refusal(pageQuery.offset, '9007199254740993');
    expect(issue.code).toBe('custom');
    expect(issue.message).toContain('offset');
  });
});

describe('labelSelector', () => {
  it('an empty or blank selector selects everything', () => {
    expect(labelSelectorParam.parse(undefined)).toBeUndefined();
    expect(labelSelectorParam.parse('')).toBeUndefined();
    expect(labelSelectorParam.parse('   ')).toBeUndefined();
  });

  it('a selector keeps its text and its parsed requirements', () => {
    const parsed = labelSelectorParam.parse('app=checkout,tier in (web,api)');
    expect(parsed?.text).toBe('app=checkout,tier in (web,api)');
    expect(parsed?.selector).toBeDefined();
  });

  it('a bad selector is refused as invalid_label_selector naming the requirement', () => {
    const { issue, params } = refusal(labelSelectorParam, 'app=ok,tier in web');
    expect(issue.code).toBe('custom');
    expect(params.problemCode).toBe('invalid_label_selector');
    expect(params.requirement).toBe('tier in web');
    expect(issue.message).toContain('tier in web');
  });
});

describe('resourceType', () => {
  // Which kinds a name may take depends on the cluster: the edge checks only that it is a kind's
  // name; the handler resolves it (src-main/service/clusters/resolve-kind.test.ts).
  it('a singular or singular.group in any case passes as typed', () => {
    for (const t of ['Pod', 'configmap', 'Certificate.Cert-Manager.IO', 'ingress.networking.k8s.io', 'x']) {
      expect(anyResourceType().parse(t)).toBe(t);
      expect(namespacedResourceType().parse(t)).toBe(t);
    }
  });

  it('text that is no kind name is refused as invalid_resource_type, quoting it', () => {
    for (const bad of ['', 'po d', 'pod.', '.pod', 'pods.v1.', '-pod', 'pod-', 'pod/x', 'pod..apps', 'pöd']) {
      const { issue, params } = refusal(anyResourceType(), bad);
      expect(issue.code).toBe('custom');
      expect(params.problemCode).toBe('invalid_resource_type');
      expect(issue.message).toContain(`"${bad}"`);
      expect(issue.message).toContain('singular.group');
    }
  });

  it('a kind name is at most 317 characters: a 63-character singular and a 253-character group', () => {
    const long = `${'a'.repeat(63)}.${'b'.repeat(253)}`;
    expect(anyResourceType().parse(long)).toBe(long);
    expect(refusal(anyResourceType(), `${long}b`).params.problemCode).toBe('invalid_resource_type');
  });
});

describe('resource names', () => {
  const nameForKind = z
    .object({ resourceType: anyResourceType(), resourceName: resourceNameParam })
    .superRefine(checkNameForKind);

  it('a name follows the rule of its kind: a service name is a DNS-1035 label', () => {
    expect(nameForKind.parse({ resourceType: 'deployment', resourceName: '1web' }).resourceName).toBe('1web');
    const { issue, params } = refusal(nameForKind, { resourceType: 'service', resourceName: '1web' });
    expect(issue.code).toBe('custom');
    expect(issue.path).toEqual(['resourceName']);
    expect(params.problemCode).toBe('invalid_name');
    expect(issue.message).toContain('1web');
  });

  it('a name that is no DNS subdomain is refused as invalid_name', () => {
    const { params } = refusal(resourceNameParam, 'Not_A_Name');
    expect(params.problemCode).toBe('invalid_name');
  });

  const objectName = z
    .object({ resourceType: anyResourceType(), resourceName: objectNameParam })
    .superRefine(checkNameForKind);

  it("endpoints 2 and 4 take any kind's name: RBAC objects are named by path-segment rules", () => {
    for (const t of [
      'clusterrole',
      'ClusterRole',
      'role',
      'rolebinding',
      'clusterrolebinding.rbac.authorization.k8s.io',
    ])
      expect(objectName.parse({ resourceType: t, resourceName: 'system:controller:job' }).resourceName).toBe(
        'system:controller:job',
      );
  });

  it('an RBAC name is refused only for "/", "%", "." and ".."', () => {
    for (const bad of ['a/b', 'a%2F', '.', '..']) {
      const { issue, params } = refusal(objectName, { resourceType: 'clusterrole', resourceName: bad });
      expect(params.problemCode).toBe('invalid_name');
      expect(issue.message).toContain('resourceName');
    }
  });

  it('every other kind keeps the DNS-subdomain rule, or its own', () => {
    for (const t of ['configmap', 'certificate.cert-manager.io', 'pod']) {
      const { issue, params } = refusal(objectName, { resourceType: t, resourceName: 'system:x' });
      expect(params.problemCode).toBe('invalid_name');
      expect(issue.path).toEqual(['resourceName']);
      expect(issue.message).toContain('RFC 1123 subdomain');
    }
    expect(objectName.parse({ resourceType: 'configmap', resourceName: 'a.b-c' }).resourceName).toBe('a.b-c');
  });

  it("a tailored kind's rule applies to its qualified name too, and to no other group's kind", () => {
    const job = refusal(objectName, { resourceType: 'job.batch', resourceName: 'j'.repeat(64) });
    expect(job.issue.message).toContain('63 characters');
    const cronjob = refusal(objectName, { resourceType: 'CronJob.Batch', resourceName: 'c'.repeat(53) });
    expect(cronjob.issue.message).toContain('52 characters');
    expect(refusal(objectName, { resourceType: 'Service', resourceName: '1web' }).issue.message).toContain(
      'RFC 1035',
    );
    // Another group's job has no length limit of the Job controller's.
    const other = objectName.parse({ resourceType: 'job.example.dev', resourceName: 'j'.repeat(64) });
    expect(other.resourceName).toHaveLength(64);
  });
});

describe('boolean parameters', () => {
  it('only the words true and false are accepted', () => {
    const flag = booleanParam('includeExpired');
    expect(flag.parse(undefined)).toBeUndefined();
    expect(flag.parse('true')).toBe(true);
    expect(flag.parse('false')).toBe(false);
    for (const bad of ['yes', 'TRUE', '1', '']) {
      const { issue } = refusal(flag, bad);
      expect(issue.code).toBe('custom');
      expect(issue.message).toContain('includeExpired');
    }
  });
});
