import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, needsRehash, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hash with scrypt, a fresh salt each time, and verify', async () => {
    const a = await hashPassword('correct horse', 10);
    const b = await hashPassword('correct horse', 10);
    expect(a).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'garbage')).toBe(false);
  });

  it('treat canonically equivalent Unicode the same', async () => {
    const h = await hashPassword('caf\u00e9!pass', 10);
    expect(await verifyPassword('cafe\u0301!pass', h)).toBe(true);
  });

  it('know when a stored hash is weaker than the current cost', async () => {
    const h = await hashPassword('x', 10);
    expect(needsRehash(h, 10)).toBe(false);
    expect(needsRehash(h, 12)).toBe(true);
    expect(needsRehash('legacy', 10)).toBe(true);
  });

  it('generate long random first passwords', () => {
    expect(generatePassword()).toMatch(/^[\w-]{24}$/);
    expect(generatePassword()).not.toBe(generatePassword());
  });
});
