/**
 * Object-name rules as the apiserver enforces them, so a form can reject a bad name
 * before a round-trip (and explain the rule instead of echoing a 422).
 */

const DNS1123_LABEL_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL_RE = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** RFC 1123 label: lower-case alphanumerics and '-', alphanumeric at both ends, ≤63. */
export function isDnsLabel(s: string): boolean {
  return s.length <= 63 && DNS1123_LABEL_RE.test(s);
}

/** RFC 1035 label: like an RFC 1123 label but must start with a letter. */
export function isDns1035Label(s: string): boolean {
  return s.length <= 63 && DNS1035_LABEL_RE.test(s);
}

/** RFC 1123 subdomain: dot-separated labels, ≤253 overall (the apiserver checks no per-label length). */
export function isDnsSubdomain(s: string): boolean {
  return s.length <= 253 && DNS1123_SUBDOMAIN_RE.test(s);
}

/**
 * A path segment name, what the apiserver takes for RBAC objects (ValidatePathSegmentName): any
 * text but "." and "..", without "/" or "%", at most 253 characters. The loosest name of any kind.
 */
export function isPathSegmentName(s: string): boolean {
  return s.length >= 1 && s.length <= 253 && s !== '.' && s !== '..' && !/[/%]/.test(s);
}

/**
 * The kinds the apiserver names by path-segment rules, with their group: roles and bindings
 * (`system:controller:job-controller`), certificate signing requests, flow control, and APIServices
 * (`v1.` for the core group).
 */
const PATH_SEGMENT_KINDS = new Map([
  ['role', 'rbac.authorization.k8s.io'],
  ['clusterrole', 'rbac.authorization.k8s.io'],
  ['rolebinding', 'rbac.authorization.k8s.io'],
  ['clusterrolebinding', 'rbac.authorization.k8s.io'],
  ['certificatesigningrequest', 'certificates.k8s.io'],
  ['flowschema', 'flowcontrol.apiserver.k8s.io'],
  ['prioritylevelconfiguration', 'flowcontrol.apiserver.k8s.io'],
  ['apiservice', 'apiregistration.k8s.io'],
]);

/** `clusterrole` or `clusterrole.rbac.authorization.k8s.io`, not another group's clusterrole. */
function namedByPathSegment(kind: string): boolean {
  const dot = kind.indexOf('.');
  const singular = dot < 0 ? kind : kind.slice(0, dot);
  const group = PATH_SEGMENT_KINDS.get(singular);
  return group !== undefined && (dot < 0 || kind.slice(dot + 1) === group);
}

const LABEL_RULE =
  "must be a lowercase RFC 1123 label: at most 63 characters, lowercase alphanumerics or '-', starting and ending with an alphanumeric (e.g. 'my-name' or '123-abc')";
const DNS1035_RULE =
  "must be a lowercase RFC 1035 label: at most 63 characters, lowercase alphanumerics or '-', starting with a letter and ending with an alphanumeric (e.g. 'my-name' or 'abc-123')";
const PATH_SEGMENT_RULE = "must not be '.' or '..', contain '/' or '%', or be longer than 253 characters";
const SUBDOMAIN_RULE =
  "must be a lowercase RFC 1123 subdomain: at most 253 characters, lowercase alphanumerics, '-' or '.', starting and ending with an alphanumeric (e.g. 'example.com')";

/**
 * Returns null for a valid name, otherwise a sentence naming the rule. `kind` is a
 * resource type or Kind in any case ('service', 'Service'); unknown kinds get the
 * DNS-subdomain rule, which is the apiserver's default for named objects.
 */
export function validateResourceName(kind: string, name: string): string | null {
  const k = kind.trim().toLowerCase();
  if (name === '') return `${k} name is required`;
  const bad = (rule: string) => `invalid ${k} name "${name}": ${rule}`;
  if (namedByPathSegment(k)) return isPathSegmentName(name) ? null : bad(PATH_SEGMENT_RULE);
  switch (k) {
    case 'namespace':
      return isDnsLabel(name) ? null : bad(LABEL_RULE);
    case 'service':
      // Service names become DNS labels in cluster DNS and env-var prefixes, hence RFC 1035.
      return isDns1035Label(name) ? null : bad(DNS1035_RULE);
    case 'cronjob':
      // The CronJob controller appends an 11-character suffix to form Job names (which must stay ≤63).
      if (!isDnsSubdomain(name)) return bad(SUBDOMAIN_RULE);
      return name.length <= 52 ? null : bad('must be no more than 52 characters');
    case 'job':
      // The Job name is copied into the `job-name` pod label, whose value is limited to 63 characters.
      if (!isDnsSubdomain(name)) return bad(SUBDOMAIN_RULE);
      return name.length <= 63 ? null : bad('must be no more than 63 characters (it becomes a label value)');
    default:
      return isDnsSubdomain(name) ? null : bad(SUBDOMAIN_RULE);
  }
}
