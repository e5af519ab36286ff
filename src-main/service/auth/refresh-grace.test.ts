import { expect, it } from 'vitest';
import type { TokenPair } from '../../../src-shared/contract/auth-models';
import { openGrace, sealGrace } from './refresh-grace';

/** The overlap pair sealed for the holder of the replaced refresh token (refresh-grace.ts). */

const PAIR: TokenPair = {
  accessToken: 'eyJ.access.token',
  refreshToken: 'skiff_rt_next',
  auth: { sub: 'acc-1', sid: 'sess-1', jti: 'jti-1', iat: 1_780_000_000, exp: 1_780_000_900 },
};

it('opens for the token it was sealed for, whole', () => {
  expect(openGrace('skiff_rt_replaced', sealGrace('skiff_rt_replaced', PAIR))).toEqual(PAIR);
});

it('a pair without its refresh token (the cookie flow) opens as it was', () => {
  const { refreshToken: _r, ...cookiePair } = PAIR;
  expect(openGrace('skiff_rt_replaced', sealGrace('skiff_rt_replaced', cookiePair))).toEqual(cookiePair);
});

it('gives nothing for any other token, however close', () => {
  const sealed = sealGrace('skiff_rt_replaced', PAIR);
  expect(openGrace('skiff_rt_replaceD', sealed)).toBeUndefined();
  expect(openGrace('', sealed)).toBeUndefined();
});

it('seals with a fresh nonce each time, and never shows the pair in the clear', () => {
  const a = sealGrace('skiff_rt_replaced', PAIR);
  const b = sealGrace('skiff_rt_replaced', PAIR);
  expect(a).not.toBe(b);
  for (const s of [a, b]) {
    expect(s).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(s, 'base64url').toString('latin1')).not.toContain('skiff_rt_next');
  }
  // 12-byte nonce, the JSON's length in ciphertext, 16-byte tag.
  expect(Buffer.from(a, 'base64url')).toHaveLength(12 + JSON.stringify(PAIR).length + 16);
});

it('gives nothing for a damaged value: any byte changed, cut short, or empty', () => {
  const sealed = Buffer.from(sealGrace('skiff_rt_replaced', PAIR), 'base64url');
  for (const at of [0, 11, 12, sealed.length - 17, sealed.length - 16, sealed.length - 1]) {
    const bent = Buffer.from(sealed);
    bent[at] = bent[at]! ^ 1;
    expect(openGrace('skiff_rt_replaced', bent.toString('base64url')), `byte ${at}`).toBeUndefined();
  }
  expect(openGrace('skiff_rt_replaced', sealed.subarray(0, 27).toString('base64url'))).toBeUndefined();
  expect(openGrace('skiff_rt_replaced', sealed.subarray(0, 28).toString('base64url'))).toBeUndefined();
  expect(openGrace('skiff_rt_replaced', '')).toBeUndefined();
});

it('gives nothing for a sealed value that is not a token pair', () => {
  // Sealed as the real thing would be, but holding something else.
  const notAPair = sealGrace('skiff_rt_replaced', {
    ...PAIR,
    auth: { sub: 'acc-1' },
  } as unknown as TokenPair);
  expect(openGrace('skiff_rt_replaced', notAPair)).toBeUndefined();
  const extra = sealGrace('skiff_rt_replaced', { ...PAIR, extra: 1 } as unknown as TokenPair);
  expect(openGrace('skiff_rt_replaced', extra)).toBeUndefined();
});
