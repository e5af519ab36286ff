/**
 * Which kubeconfig files are read, in kubectl's order of precedence: the command line, then
 * $KUBECONFIG, then the files chosen in Settings, then ~/.kube/config.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveKubeconfigPaths } from './kubeconfig';

let dir: string;
let a: string;
let b: string;
let home: string;
let emptyHome: string;
const missing = () => join(dir, 'missing.yaml');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-kubeconfig-paths-'));
  [a, b] = [join(dir, 'a.yaml'), join(dir, 'b.yaml')];
  home = join(dir, 'home');
  emptyHome = join(dir, 'empty-home');
  await mkdir(join(home, '.kube'), { recursive: true });
  await mkdir(emptyHome);
  await Promise.all([a, b, join(home, '.kube', 'config')].map((f) => writeFile(f, 'apiVersion: v1\n')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('resolveKubeconfigPaths', () => {
  it('paths named on the command line are read as given, even missing ones, and before anything else', () => {
    const env = { KUBECONFIG: a, HOME: home };
    expect(resolveKubeconfigPaths([b, missing()], env, [a])).toEqual([b, missing()]);
  });

  it('$KUBECONFIG is split on the path delimiter, in order, skipping empty entries and missing files', () => {
    const env = { KUBECONFIG: [b, '', '  ', missing(), a].join(delimiter), HOME: home };
    expect(resolveKubeconfigPaths([], env, [a])).toEqual([b, a]);
  });

  it('$KUBECONFIG naming only missing files reads nothing, and does not fall back', () => {
    const env = { KUBECONFIG: missing(), HOME: home };
    expect(resolveKubeconfigPaths([], env, [a])).toEqual([]);
  });

  it('an empty $KUBECONFIG counts as unset: the files chosen in Settings are read, missing ones skipped', () => {
    const env = { KUBECONFIG: delimiter, HOME: home };
    expect(resolveKubeconfigPaths([], env, [missing(), b])).toEqual([b]);
  });

  it('with nothing else named, ~/.kube/config under $HOME is read', () => {
    expect(resolveKubeconfigPaths([], { HOME: home }, [])).toEqual([join(home, '.kube', 'config')]);
    expect(resolveKubeconfigPaths([], { HOME: home })).toEqual([join(home, '.kube', 'config')]);
  });

  it('and when that file does not exist, nothing is read', () => {
    expect(resolveKubeconfigPaths([], { HOME: emptyHome }, [])).toEqual([]);
  });
});
