/**
 * stripSecret (secrets-strip.ts): what is left of a Secret once read.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { LAST_APPLIED_ANNOTATION, stripSecret } from './secrets-strip';

/**
 * What is left of a Secret once read. That no read path skips this: the canary test
 * (test/secrets-canary.it.test.ts).
 */

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const secret = (extra: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'db',
      namespace: 'shop',
      uid: 'u-1',
      labels: { app: 'db' },
      ...(annotations ? { annotations } : {}),
    },
    type: 'Opaque',
    ...extra,
  }) as KubeObject;

describe('stripSecret', () => {
  it('keeps metadata and type, and each key with its decoded size in bytes, ordered by name', () => {
    const out = stripSecret(
      secret({ data: { password: b64('hunter2'), 'a.key': b64(''), username: b64('ünï') }, immutable: true }),
    );
    expect(out).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'shop', uid: 'u-1', labels: { app: 'db' } },
      type: 'Opaque',
      immutable: true,
      keys: [
        { name: 'a.key', bytes: 0 },
        { name: 'password', bytes: 7 },
        // Bytes, not characters: what the pod reads from the mounted file.
        { name: 'username', bytes: 5 },
      ],
    });
  });

  it('sizes every base64 padding length right', () => {
    for (const value of ['a', 'ab', 'abc', 'abcd', '\u0000\u00ff'.repeat(40)]) {
      const [key] = stripSecret(secret({ data: { k: b64(value) } })).keys as Array<{ bytes: number }>;
      expect(key?.bytes, JSON.stringify(value)).toBe(Buffer.byteLength(value, 'utf8'));
    }
  });

  it('changes the object it was given: nothing still holds the values', () => {
    const obj = secret({ data: { password: b64('hunter2') }, stringData: { token: 'abc' } });
    const out = stripSecret(obj);
    expect(out).toBe(obj);
    expect(obj).not.toHaveProperty('data');
    expect(obj).not.toHaveProperty('stringData');
  });

  it('counts stringData in UTF-8 bytes, and lets it win over data as the apiserver does', () => {
    const out = stripSecret(
      secret({ data: { token: b64('longer value'), a: b64('x') }, stringData: { token: 'é' } }),
    );
    expect(out.keys).toEqual([
      { name: 'a', bytes: 1 },
      { name: 'token', bytes: 2 },
    ]);
  });

  it('a Secret with no data has no keys', () => {
    expect(stripSecret(secret()).keys).toEqual([]);
    expect(stripSecret(secret({ data: null })).keys).toEqual([]);
    expect(stripSecret(secret({ data: 'not an object' })).keys).toEqual([]);
    expect(stripSecret(secret({ data: ['a'] })).keys).toEqual([]);
    expect(stripSecret(secret({ stringData: ['a'] })).keys).toEqual([]);
    expect(stripSecret(secret({ data: null }))).not.toHaveProperty('data');
  });

  it('a value that is not text is a key of size 0', () => {
    expect(stripSecret(secret({ data: { odd: 42 }, stringData: { other: { x: 1 } } })).keys).toEqual([
      { name: 'odd', bytes: 0 },
      { name: 'other', bytes: 0 },
    ]);
  });

  it('drops the last-applied annotation, which holds the values, and keeps the others', () => {
    const applied = JSON.stringify({ data: { password: b64('hunter2') } });
    const out = stripSecret(secret({}, { [LAST_APPLIED_ANNOTATION]: applied, owner: 'team-a' }));
    expect(out.metadata.annotations).toEqual({ owner: 'team-a' });
  });

  it('drops the annotations object the last-applied one leaves empty', () => {
    const out = stripSecret(secret({}, { [LAST_APPLIED_ANNOTATION]: '{}' }));
    expect(out.metadata).not.toHaveProperty('annotations');
  });

  it('leaves other annotations alone, empty ones included', () => {
    expect(stripSecret(secret({}, { owner: 'team-a' })).metadata.annotations).toEqual({ owner: 'team-a' });
    expect(stripSecret(secret({}, {})).metadata.annotations).toEqual({});
  });

  it('an object without metadata is stripped all the same', () => {
    const out = stripSecret({ kind: 'Secret', data: { a: b64('x') } } as unknown as KubeObject);
    expect(out).toEqual({ kind: 'Secret', keys: [{ name: 'a', bytes: 1 }] });
  });
});
