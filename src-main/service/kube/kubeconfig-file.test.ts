/**
 * Reading kubeconfig documents as kubectl does (kubeconfig-file.ts), naming the entry that cannot
 * be used, and merging files (kubeconfig.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContexts } from './kubeconfig';
import { KubeconfigError, parseKubeconfig } from './kubeconfig-file';

const DOC = `
apiVersion: v1
kind: Config
preferences: {colors: true}
current-context: b
clusters:
- name: prod
  cluster:
    server: https://prod.example:6443/
    certificate-authority: certs/ca.pem
    tls-server-name: api.prod
    proxy-url: http://proxy:3128
    extensions: [{name: x, extension: {}}]
- name: abs
  cluster:
    server: https://abs.example
    certificate-authority: /etc/ca.pem
    insecure-skip-tls-verify: true
users:
- name: files
  user:
    client-certificate: certs/me.crt
    client-key: /keys/me.key
    tokenFile: token
- name: plugin
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./bin/get-token
- name: on-path
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: aws}
- name: basic
  user: {username: ann, password: pw, as: bob}
- name: empty
  user: null
contexts:
- name: a
  context: {cluster: prod, user: files, namespace: web}
- name: b
  context: {cluster: abs}
`;

describe('reading a kubeconfig as kubectl does', () => {
  const doc = parseKubeconfig(DOC, '/home/me/.kube/config');

  it('resolves relative file paths against the kubeconfig folder and keeps absolute ones', () => {
    const [prod, abs] = doc.clusters;
    expect(prod?.caFile).toBe('/home/me/.kube/certs/ca.pem');
    expect(abs?.caFile).toBe('/etc/ca.pem');
    const files = doc.users.find((u) => u.name === 'files');
    expect(files).toMatchObject({
      certFile: '/home/me/.kube/certs/me.crt',
      keyFile: '/keys/me.key',
      tokenFile: '/home/me/.kube/token',
    });
  });

  it('resolves an exec command with a path separator, and leaves a bare command to the PATH', () => {
    expect((doc.users.find((u) => u.name === 'plugin')!.exec as { command: string }).command).toBe(
      '/home/me/.kube/bin/get-token',
    );
    expect((doc.users.find((u) => u.name === 'on-path')!.exec as { command: string }).command).toBe('aws');
  });

  it('drops the trailing slash of a server and reads the TLS options', () => {
    expect(doc.clusters[0]).toMatchObject({
      server: 'https://prod.example:6443',
      skipTLSVerify: false,
      tlsServerName: 'api.prod',
      proxyUrl: 'http://proxy:3128',
    });
    expect(doc.clusters[1]?.skipTLSVerify).toBe(true);
  });

  it('reads basic auth and impersonation, and a user with no fields', () => {
    expect(doc.users.find((u) => u.name === 'basic')).toEqual({
      name: 'basic',
      username: 'ann',
      password: 'pw',
      impersonateUser: 'bob',
    });
    expect(doc.users.find((u) => u.name === 'empty')).toEqual({ name: 'empty' });
  });

  it('reads contexts with and without a user and namespace, and the current context', () => {
    expect(doc.contexts).toEqual([
      { name: 'a', cluster: 'prod', user: 'files', namespace: 'web' },
      { name: 'b', cluster: 'abs' },
    ]);
    expect(doc.currentContext).toBe('b');
  });

  it('keeps an absolute exec command, and an exec stanza that is not a mapping, as written', () => {
    const d = parseKubeconfig(
      'users: [{name: a, user: {exec: {command: /usr/bin/aws}}}, {name: b, user: {exec: ./not-a-mapping}}]',
      '/k/config',
    );
    expect((d.users[0]!.exec as { command: string }).command).toBe('/usr/bin/aws');
    // Left for exec-plugin.ts to refuse by name when the context is used.
    expect(d.users[1]!.exec).toBe('./not-a-mapping');
  });

  it("accepts client-node's token-file spelling too", () => {
    const d = parseKubeconfig('users: [{name: u, user: {token-file: t}}]', '/k/config');
    expect(d.users[0]?.tokenFile).toBe('/k/t');
  });

  it('keeps paths as written for a document with no file', () => {
    const d = parseKubeconfig(
      'clusters: [{name: c, cluster: {server: "https://x", certificate-authority: ca}}]',
    );
    expect(d.clusters[0]?.caFile).toBe('ca');
  });

  it('reads an empty document as no contexts', () => {
    expect(parseKubeconfig('')).toEqual({ clusters: [], users: [], contexts: [] });
  });
});

describe('a kubeconfig that cannot be used names the file and the entry', () => {
  const cases: [string, string, RegExp][] = [
    ['not YAML', 'clusters: [', /^kubeconfig \/k\/config: not YAML: /],
    [
      'a cluster without a name',
      'clusters: [{cluster: {server: "https://x"}}]',
      /clusters\[0\]\.name: name is missing/,
    ],
    [
      'a cluster without a server',
      'clusters: [{name: c, cluster: {}}]',
      /clusters\[0\]\.cluster\.server: server is missing/,
    ],
    [
      'a context without a cluster',
      'contexts: [{name: x, context: {user: u}}]',
      /contexts\[0\]\.context\.cluster/,
    ],
    ['a list that is not a list', 'users: {name: u}', /^kubeconfig \/k\/config: users: /],
    ['a document that is not a mapping', '- just\n- a list', /^kubeconfig \/k\/config: document: /],
  ];
  for (const [what, source, message] of cases) {
    it(what, () => {
      expect(() => parseKubeconfig(source, '/k/config')).toThrow(KubeconfigError);
      expect(() => parseKubeconfig(source, '/k/config')).toThrow(message);
    });
  }
});

describe('merging kubeconfig files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skiff-kubeconfig-'));
    await writeFile(
      join(dir, 'one'),
      `clusters: [{name: c, cluster: {server: "https://one"}}]
users: [{name: u, user: {token: first}}]
contexts: [{name: shared, context: {cluster: c, user: u}}, {name: orphan, context: {cluster: nowhere}}]`,
    );
    await writeFile(
      join(dir, 'two'),
      `clusters: [{name: c, cluster: {server: "https://two"}}, {name: d, cluster: {server: "https://d"}}]
users: [{name: u, user: {token: second}}]
contexts: [{name: shared, context: {cluster: d}}, {name: own, context: {cluster: d, user: u}}]`,
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lets the first file that names a cluster, user or context win, and skips contexts with no cluster', () => {
    const contexts = loadContexts([join(dir, 'one'), join(dir, 'two')]);
    expect(contexts.map((c) => [c.context, c.server, c.config.user?.token])).toEqual([
      ['shared', 'https://one', 'first'],
      ['own', 'https://d', 'first'],
    ]);
  });

  it('names a file that cannot be read', () => {
    expect(() => loadContexts([join(dir, 'missing')])).toThrow(
      /kubeconfig .*missing: cannot be read \(ENOENT\)/,
    );
  });
});
