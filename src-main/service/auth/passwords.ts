import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt with the parameters stored beside each hash (PHC-like `$scrypt$ln=16,r=8,p=1$salt$hash`),
 * so the cost can be raised later and old hashes still verify (and are re-hashed at the next login).
 * ln=16 (N=65536, 64 MiB, ~0.2 s here) keeps a login interactive on a laptop while making offline
 * guessing expensive.
 */
export const DEFAULT_PASSWORD_COST = 16;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

interface Parsed {
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function derive(password: string, salt: Buffer, ln: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** ln, r, p, maxmem: 256 * 2 ** ln * r * p };
  return new Promise((resolve, reject) => {
    // NFKC: the same password typed on two keyboards must give the same bytes (NIST SP 800-63B).
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

function parse(stored: string): Parsed | null {
  const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!m) return null;
  return {
    ln: Number(m[1]),
    r: Number(m[2]),
    p: Number(m[3]),
    salt: Buffer.from(m[4]!, 'base64url'),
    hash: Buffer.from(m[5]!, 'base64url'),
  };
}

export async function hashPassword(password: string, cost = DEFAULT_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, cost, BLOCK_SIZE, PARALLELISM);
  return `$scrypt$ln=${cost},r=${BLOCK_SIZE},p=${PARALLELISM}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.ln, parsed.r, parsed.p);
  return candidate.length === parsed.hash.length && timingSafeEqual(candidate, parsed.hash);
}

export function needsRehash(stored: string, cost = DEFAULT_PASSWORD_COST): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.ln < cost || parsed.r !== BLOCK_SIZE || parsed.p !== PARALLELISM;
}

/** A fresh random password for the first administrator: 144 bits, easy to copy. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
