import { describe, expect, it } from 'vitest';
import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import { toEntry } from '../../kube/kind-catalog';
import { EXACT, kindScore, matchKinds, namesOf, PART, PREFIX, parseQuery } from './match';

/** How the palette reads a query and ranks kinds against it. */

const k = (resourceType: string, kind: string, plural: string, shortNames: string[] = [], group = '') =>
  toEntry({
    resourceType,
    plural,
    kind,
    group,
    version: 'v1',
    namespaced: true,
    shortNames,
    categories: [],
    verbs: ['list', 'watch'],
  } satisfies ServedKind);

const POD = k('pod', 'Pod', 'pods', ['po']);
const DEPLOY = k('deployment', 'Deployment', 'deployments', ['deploy'], 'apps');
const CM = k('configmap', 'ConfigMap', 'configmaps', ['cm']);
const CERT = k('certificate', 'Certificate', 'certificates', ['cert', 'certs'], 'cert-manager.io');
const CSR = k('certificatesigningrequest', 'CertificateSigningRequest', 'certificatesigningrequests', [
  'csr',
]);
const PDB = k('poddisruptionbudget', 'PodDisruptionBudget', 'poddisruptionbudgets', ['pdb'], 'policy');
const ING = k('ingress.networking.k8s.io', 'Ingress', 'ingresses', ['ing'], 'networking.k8s.io');
const KINDS = [POD, DEPLOY, CM, CERT, CSR, PDB, ING];
const types = (text: string, limit?: number) =>
  matchKinds(text, KINDS, limit).map((m) => m.kind.resourceType);

describe('parseQuery', () => {
  it('reads a plain query as both a kind and a name prefix', () => {
    expect(parseQuery('  Front ')).toEqual({ kindText: 'front', namePrefix: 'front', scoped: false });
  });
  it('drops the k9s colon', () => {
    expect(parseQuery(':deploy')).toEqual({ kindText: 'deploy', namePrefix: 'deploy', scoped: false });
    expect(parseQuery('::  po')).toEqual({ kindText: 'po', namePrefix: 'po', scoped: false });
  });
  it('drops only leading colons, after the spaces', () => {
    expect(parseQuery(' :deploy').kindText).toBe('deploy');
    expect(parseQuery('a:b').kindText).toBe('a:b');
  });
  it('splits kind/name', () => {
    expect(parseQuery('/front')).toEqual({ kindText: '', namePrefix: 'front', scoped: true });
    expect(parseQuery('po/ Front')).toEqual({ kindText: 'po', namePrefix: 'front', scoped: true });
    expect(parseQuery('cert /')).toEqual({ kindText: 'cert', namePrefix: '', scoped: true });
    expect(parseQuery('a/b/c')).toEqual({ kindText: 'a', namePrefix: 'b/c', scoped: true });
  });
});

describe('namesOf', () => {
  it('lists every name kubectl accepts and the label, lower-case', () => {
    expect(namesOf(ING)).toEqual([
      'ingress.networking.k8s.io',
      'ingress',
      'ingresses',
      'ing',
      'ingress',
      'ingresses',
    ]);
    expect(namesOf(CM)).toEqual(['configmap', 'configmap', 'configmaps', 'cm', 'configmap', 'configmaps']);
  });
});

describe('kindScore', () => {
  it('scores exact names highest, by any of them', () => {
    expect(kindScore('po', POD)).toBe(EXACT);
    expect(kindScore('pods', POD)).toBe(EXACT);
    expect(kindScore('deploy', DEPLOY)).toBe(EXACT);
    expect(kindScore('ingress', ING)).toBe(EXACT);
    expect(kindScore('configmaps', CM)).toBe(EXACT);
  });
  it('scores a prefix by how much of the name is left', () => {
    expect(kindScore('dep', DEPLOY)).toBe(PREFIX - 3);
    expect(kindScore('certificatesigning', CSR)).toBe(PREFIX - 7);
    // Never as low as a part, however long the rest.
    const long = k('x'.repeat(60), 'X'.repeat(60), `${'x'.repeat(60)}s`);
    expect(kindScore('x', long)).toBe(PART + 1);
    // The best of its names counts: "c" is most of "csr".
    expect(kindScore('c', CSR)).toBe(PREFIX - 2);
  });
  it('scores a part lowest, and nothing at all as zero', () => {
    expect(kindScore('map', CM)).toBe(PART - 6);
    expect(kindScore('signing', CSR)).toBe(PART - 18);
    // Never zero, however long the rest.
    const long = k(`a${'x'.repeat(60)}`, `A${'x'.repeat(60)}`, `a${'x'.repeat(60)}s`);
    expect(kindScore('xx', long)).toBe(1);
    expect(kindScore('zzz', CM)).toBe(0);
    expect(kindScore('', CM)).toBe(0);
  });
});

describe('matchKinds', () => {
  it('puts the exact short name first', () => {
    expect(types('po')).toEqual(['pod', 'poddisruptionbudget']);
    expect(types('cert')).toEqual(['certificate', 'certificatesigningrequest']);
    expect(types('cm')).toEqual(['configmap']);
  });
  it('breaks ties by label', () => {
    const zed = k('one', 'Zed', 'zeds');
    const ace = k('two', 'Ace', 'aces');
    expect(kindScore('e', zed)).toBe(kindScore('e', ace));
    expect(matchKinds('e', [zed, ace]).map((m) => m.kind.resourceType)).toEqual(['two', 'one']);
  });
  it('stops at the limit and leaves out what does not match', () => {
    expect(types('e', 2)).toHaveLength(2);
    expect(types('nothing-like-it')).toEqual([]);
    expect(types('')).toEqual([]);
  });
});
