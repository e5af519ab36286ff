/**
 * Test support for the contract fuzz: the hostile values, as fast-check arbitraries. Rules:
 * - what a schema documents comes first (examples with their numbers swapped, the values around
 *   a minimum, maximum or length, near misses of the values it names), then anything at all;
 * - path and query values are percent-encoded here byte by byte, so malformed escapes and
 *   invalid UTF-8 reach the service as a client could send them; bodies are bytes.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import {
  bound,
  defOf,
  documentedParam,
  fieldsOf,
  namedValues,
  unwrapped,
} from './contract-fuzz-schemas.test-support';

const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** Percent-encodes bytes, leaving only unreserved ASCII as it is. */
const encodeBytes = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => {
    const c = String.fromCharCode(b);
    return UNRESERVED.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
export const encodeText = (text: string) => encodeBytes(new TextEncoder().encode(text));

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

/** Numbers no parameter takes: huge, negative, fractional, exponent, hex, and the words for none. */
const hostileNumber = fc.oneof(
  fc.constantFrom(
    'NaN',
    'Infinity',
    '-Infinity',
    '-0',
    '0',
    '-1',
    '1.5',
    '1e309',
    '1e-7',
    '0x1F',
    '0b1',
    '+1',
  ),
  digits(15, 30),
  digits(31, 400),
  digits(1, 20).map((d) => `-${d}`),
  fc.constantFrom(String(2 ** 53 + 1), String(Number.MAX_SAFE_INTEGER), '9007199254740993'),
);

/** Durations and instants at and past every range: the forms `since` and `until` read. */
const hostileTime = fc.oneof(
  fc
    .tuple(
      fc.oneof(digits(1, 6), digits(10, 30), digits(200, 400)),
      fc.constantFrom('ms', 's', 'm', 'h', 'd', 'w', 'y', ''),
    )
    .map(([n, unit]) => `${n}${unit}`),
  fc
    .array(fc.tuple(digits(1, 18), fc.constantFrom('ms', 's', 'm', 'h', 'd')), { minLength: 2, maxLength: 6 })
    .map((parts) => parts.map(([n, u]) => `${n}${u}`).join('')),
  fc
    .tuple(
      fc.constantFrom(
        '0000',
        '0001',
        '1969',
        '2026',
        '9999',
        '+275760',
        '-271821',
        '+010000',
        '10000',
        '-000001',
      ),
      fc.constantFrom('-00-00', '-01-01', '-02-30', '-04-20', '-09-13', '-12-31', '-13-45'),
      fc.constantFrom(
        '',
        'T00:00:00Z',
        'T23:59:59.999Z',
        'T24:00:00Z',
        'T00:00:60Z',
        'T12:00:00+14:00',
        'T12:00:00-23:59',
        'T00:00Z',
        'T12:00:00.123456789Z',
      ),
    )
    .map(([y, md, t]) => `${y}${md}${t}`),
  digits(10, 30),
);

/** Text of every awkward kind: empty, blank, words that mean something to a parser, unicode, long. */
const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\t',
    'null',
    'undefined',
    'true',
    'false',
    'TRUE',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    '.',
    '..',
    '*',
    ',',
    '=',
    '-',
    '!',
    '\\',
    '"',
    "'",
    '<script>',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.constantFrom('a', '-', '.', '0'), minLength: 60, maxLength: 300 }),
  fc.string({ minLength: 1000, maxLength: 4000 }),
);

/** Encoded forms no text encodes to: bare and malformed escapes, overlong and surrogate UTF-8, NUL. */
const hostileEncoding = fc.oneof(
  fc.constantFrom(
    '%',
    '%2',
    '%zz',
    '%FF%FE',
    '%C0%AF',
    '%C0%80',
    '%ED%A0%80',
    '%E0%80%80',
    '%F4%90%80%80',
    '%00',
    '%2F',
    '%2e%2e',
    '%25',
    '%0A',
    '%0D%0A',
    '+',
  ),
  fc.uint8Array({ minLength: 1, maxLength: 24 }).map(encodeBytes),
);

/** Each run of digits of a documented example swapped for a huge, zero or out-of-range one. */
function mutatedExamples(examples: string[]): fc.Arbitrary<string> {
  const swap = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('0', '00', '99999', '36501', '9007199254740993'),
    digits(10, 30),
    digits(200, 400),
  );
  return fc
    .tuple(fc.constantFrom(...examples), fc.array(swap, { minLength: 8, maxLength: 8 }))
    .map(([example, swaps]) => {
      let i = 0;
      return example.replace(/\d+/g, (run) => swaps[i++ % swaps.length] ?? run);
    });
}

/**
 * A hostile path or query value, already encoded for the wire. What the schema documents comes
 * first: its examples with their numbers swapped, the values around its minimum and maximum, the
 * near misses of the values it names; then everything any parameter could be sent.
 */
export function hostileParam(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    ...(schema ? informedParams(schema) : []).map((arbitrary) => ({
      weight: 3,
      arbitrary: arbitrary.map(encodeText),
    })),
    hostileNumber.map(encodeText),
    hostileTime.map(encodeText),
    hostileString.map(encodeText),
    hostileEncoding,
  );
}

/** What the schema documents of a URL parameter, made hostile (not yet encoded). */
function informedParams(schema: z.ZodType): Array<fc.Arbitrary<string>> {
  const doc = documentedParam(schema);
  const named = namedValues(schema);
  const edges = [doc.minimum, doc.maximum].flatMap((n) => (n === undefined ? [] : [n - 1, n, n + 1, n * 10]));
  return [
    ...(doc.examples?.length ? [mutatedExamples(doc.examples)] : []),
    ...(edges.length ? [fc.constantFrom(...edges.map(String))] : []),
    ...(named.length
      ? [
          fc
            .tuple(fc.constantFrom(...named), fc.constantFrom('', ' ', 'x', '\u0000', 'é'), fc.boolean())
            .map(([v, extra, upper]) => `${upper ? v.toUpperCase() : v}${extra}`),
        ]
      : []),
  ];
}

/**
 * A hostile value for a header read as a parameter. Only what a header can carry (visible ASCII,
 * spaces): a client cannot send the rest, so fetch refuses it before it leaves.
 */
export const hostileHeader = (schema: z.ZodType | undefined): fc.Arbitrary<string> =>
  fc
    .oneof(hostileNumber, hostileTime, hostileString, ...(schema ? informedParams(schema) : []))
    .filter((v) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(v));

/** A JSON value of any wrong type, size or depth for a body field. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, '', ' ', 'NaN', [], {}, [
    null,
  ]),
  fc.integer(),
  fc.double(),
  hostileString,
  hostileNumber,
  fc.array(fc.string({ maxLength: 70 }), { minLength: 201, maxLength: 600 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 100, max: 3000 }).map((depth) => nested(depth)),
  fc.dictionary(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'x'),
    fc.jsonValue({ maxDepth: 1 }),
  ),
);

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/**
 * A hostile value for a body field of this schema: around its bounds (a number's minimum and
 * maximum, one past a string's or an array's length), near misses of what it names, an object
 * with one field of its own hostile; then any JSON of a wrong type, size or depth.
 */
export function hostileValue(schema: z.ZodType): fc.Arbitrary<unknown> {
  const inner = unwrapped(schema);
  const type = defOf(inner).type;
  const informed: Array<fc.Arbitrary<unknown>> = [];
  if (type === 'number') {
    const edges = [bound(inner, 'greater_than'), bound(inner, 'less_than')].flatMap((n) =>
      n === undefined ? [] : [n - 1, n - 0.5, n, n + 0.5, n + 1],
    );
    informed.push(fc.constantFrom(...edges, 2 ** 31, -(2 ** 31), 2 ** 53 + 2, 0.1, '1'));
  }
  const longest = bound(inner, 'max_length');
  if (type === 'string')
    informed.push(fc.constantFrom('a'.repeat(longest ?? 4096), 'a'.repeat((longest ?? 4096) + 1), ''));
  if (type === 'array' && longest !== undefined) {
    const element = defOf(inner).element as z.ZodType;
    informed.push(
      hostileValue(element).map((v) => [v]),
      fc.constant(Array.from({ length: longest + 1 }, (_, i) => `item-${i}`)),
    );
  }
  const named = namedValues(inner);
  if (named.length)
    informed.push(fc.constantFrom(...named.flatMap((v) => [v.toUpperCase(), ` ${v}`, `${v}\u0000`])));
  const fields = fieldsOf(inner);
  if (fields) {
    const names = Object.keys(fields);
    informed.push(
      fc
        .constantFrom(...names)
        .chain((name) => hostileValue(fields[name]!).map((value) => ({ [name]: value }))),
    );
  }
  return fc.oneof(...informed.map((arbitrary) => ({ weight: 2, arbitrary })), {
    weight: 1,
    arbitrary: hostileJson,
  });
}

/** A whole body that is no JSON object: broken JSON, a wrong type, deep nesting, a byte soup. */
const hostileBodyText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '{"a":',
    '[',
    'nul',
    '"',
    '\u0000',
    '\uFEFF{}',
    '{}{}',
    '{"a":1,"a":2}',
    '{"__proto__":{"role":"admin"}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '1e999',
    '-',
    'null',
    '[]',
    '"text"',
    '12',
    'true',
  ),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

export const utf8 = (text: string) => new TextEncoder().encode(text);

/** The bytes of a hostile body: text as above, bytes that are no UTF-8, an SQLite header on junk. */
export const hostileBody: fc.Arbitrary<Uint8Array<ArrayBuffer>> = fc.oneof(
  hostileBodyText.map(utf8),
  fc.uint8Array({ maxLength: 300 }),
  fc
    .uint8Array({ minLength: 1, maxLength: 4096 })
    .map((junk) => new Uint8Array([...utf8('SQLite format 3\u0000'), ...junk])),
);

export const hostileContentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'application/json;charset=latin1',
  'application/problem+json',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/vnd.skiff.snapshot+sqlite',
  '',
  ';;;',
  'application/json; charset="',
);
