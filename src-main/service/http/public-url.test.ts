/** Links under --public-url (public-url.ts): Location and each Link target made absolute; the guard's lists extended. */
import { describe, expect, it } from 'vitest';
import { absoluteLinks, publicUrlAuth } from './public-url';

describe('absoluteLinks', () => {
  it('resolves Location and every Link target against the public origin, leaving other headers alone', () => {
    const given = {
      Location: '/v1/snapshots/s1',
      Link: '</v1/x?limit=1&offset=0>; rel="first", </v1/x?limit=1&offset=1>; rel="next"',
      ETag: '"</v1/not-a-link>"',
    };
    expect(absoluteLinks(given, 'https://skiff.example.com')).toEqual({
      Location: 'https://skiff.example.com/v1/snapshots/s1',
      Link: '<https://skiff.example.com/v1/x?limit=1&offset=0>; rel="first", <https://skiff.example.com/v1/x?limit=1&offset=1>; rel="next"',
      ETag: '"</v1/not-a-link>"',
    });
    expect(given.Location).toBe('/v1/snapshots/s1');
  });

  it('reads header names in any case', () => {
    expect(absoluteLinks({ location: '/a', link: '</b>; rel="last"' }, 'http://h:8080')).toEqual({
      location: 'http://h:8080/a',
      link: '<http://h:8080/b>; rel="last"',
    });
  });
});

describe('publicUrlAuth', () => {
  it('adds the public host (with its port) and origin to what was given', () => {
    expect(publicUrlAuth(undefined, 'https://skiff.example.com')).toEqual({
      allowedHosts: ['skiff.example.com'],
      allowedOrigins: ['https://skiff.example.com'],
    });
    expect(
      publicUrlAuth({ allowedHosts: ['a.lan'], allowedOrigins: ['https://b.lan'] }, 'http://skiff.lan:8080'),
    ).toEqual({
      allowedHosts: ['a.lan', 'skiff.lan:8080'],
      allowedOrigins: ['https://b.lan', 'http://skiff.lan:8080'],
    });
  });
});
