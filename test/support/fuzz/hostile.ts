import type { Random } from '../random.ts';
import { RawJson } from './raw-json.ts';

/**
 * The hostile values cases are made of. None holds a marker the leak check looks for (a path of
 * this machine, `node_modules`, `.ts:`), so an answer echoing its input is never taken for a leak.
 */

export const hostileStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\uffff\ufffe',
  '\u202e\u202d',
  '\u200b\u200d',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 ﷽',
  'ＡＢＣ．ｅｘａｍｐｌｅ',
  "' OR '1'='1",
  "'; drop table brands; --",
  '" or 1=1 --',
  '1) union select null, version() --',
  "%' and pg_sleep(1) is null and '%'='",
  '\\',
  '%',
  '_',
  '%_%\\',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '....//....//',
  '/..',
  '.',
  '..',
  '~',
  'C:\\Windows\\win.ini',
  '/proc/self/environ',
  'file:///etc/passwd',
  'http://127.0.0.1:1/',
  'http://[::1]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://localhost./',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-1',
  '0',
  '00',
  '0x10',
  '9007199254740993',
  'true',
  '[]',
  '{}',
  '\r\nSet-Cookie: x=1',
  '\t\n\u000b\f\r',
  'xn--',
  'xn--zz',
  'example..com',
  '-example.com',
  'a'.repeat(64) + '.example',
  'éxample.com',
  'exаmple.com',
  'EXAMPLE.COM.',
  '*.example.com',
  '@',
  '#fragment',
  '?query=1',
];

/** The values that most often break code: NUL, lone surrogates, numbers as text, SQL and path fragments. */
export const sharpStrings: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d\ud83d',
  "' OR '1'='1",
  '../../../../etc/passwd',
  'Infinity',
  '-1',
  '%_%\\',
];

/** Query-string values as sent on the wire, already percent-encoded where they need to be. */
export const hostileQueryTokens: readonly string[] = [
  'Infinity',
  '-Infinity',
  '%2BInfinity',
  '1e999',
  '-1e999',
  'NaN',
  '-0',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999999',
  '',
  '%20',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%C0%AE%C0%AE',
  '%FF%FE',
  '%',
  '%ZZ',
  '%2',
  '..',
  '%2e%2e%2f%2e%2e%2f',
  '%27%20OR%20%271%27%3D%271',
  '%3Cscript%3E',
  'true',
  'null',
  '[]',
  '%5B%5D',
  'a%26b%3Dc',
  '%0d%0aX-Injected:%201',
];

/** Values for a numeric query parameter as sent on the wire: beyond what a double holds, not a number, or barely one. */
export const numericQueryTokens: readonly string[] = [
  'Infinity',
  '-Infinity',
  '%2BInfinity',
  '1e999',
  '-1e999',
  '1e308',
  'NaN',
  '-0',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999999',
  '9007199254740993',
  '',
  '%20',
  '%00',
  'one',
];

/** Path segments as sent on the wire. */
export const hostilePathSegments: readonly string[] = [
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '..%2f..%2f',
  '%2F',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF',
  '%',
  '%ZZ',
  '%20',
  '%27%20OR%201%3D1--',
  'Infinity',
  'NaN',
  '-1',
  '0',
  'x'.repeat(3000),
  'https%3A%2F%2F127.0.0.1%2F',
  'https:%2F%2Fagent.example%2Fmcp',
  '%E2%80%AE',
];

/** Numbers JavaScript can hold, and raw literals it cannot (JSON.parse reads 1e999 as Infinity). */
export function hostileNumber(random: Random): unknown {
  return random.pick<unknown>([
    0,
    -0,
    -1,
    1.5,
    -1.5,
    Number.MAX_SAFE_INTEGER + 2,
    -Number.MAX_SAFE_INTEGER - 2,
    2 ** 31,
    2 ** 63,
    1e308,
    -1e308,
    5e-324,
    new RawJson('1e999'),
    new RawJson('-1e999'),
    new RawJson('1e-999'),
    new RawJson('-0.0'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('1.0000000000000000000000001'),
  ]);
}

/** Header values a client can send (no control characters: a client refuses to send those). */
export const hostileHeaderValues: readonly string[] = [
  '',
  ' ',
  'x'.repeat(8000),
  "' OR '1'='1",
  '../../etc/passwd',
  'ÿÿÿ',
  'Bearer',
  'Bearer ',
  'Bearer \t',
  'Basic YWRtaW46YWRtaW4=',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.',
  'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x',
  'Bearer ap_' + 'A'.repeat(40),
  'Bearer ' + 'x'.repeat(5000),
  'Bearer a, Bearer b',
  'NaN',
  '-1',
];

/** A string of `length` characters, made of a repeated hostile piece or plain letters. */
export function hugeString(random: Random, length: number): string {
  const piece = random.pick(['a', 'é', '😀', '\u0000', ' ', '%', "'", 'a ', 'ab', '\ud800']);
  return piece.repeat(Math.ceil(length / piece.length)).slice(0, length);
}

/** A value nested `depth` levels deep, arrays or objects. */
export function deepValue(random: Random, depth: number): unknown {
  const asArray = random.chance(0.5);
  let value: unknown = random.pick<unknown>([1, 'x', null, {}]);
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** A scalar of any type, hostile more often than not. */
export function hostileScalar(random: Random): unknown {
  switch (random.int(0, 5)) {
    case 0:
      return random.pick(sharpStrings);
    case 1:
      return random.pick(hostileStrings);
    case 2:
      return hostileNumber(random);
    case 3:
      return random.pick<unknown>([true, false, null]);
    case 4:
      return hugeString(random, random.pick([300, 1025, 4097, 70_000]));
    default:
      return random.pick<unknown>([
        [],
        {},
        [null],
        { '': '' },
        { __proto__: { polluted: true } },
        JSON.parse('{"__proto__": {"polluted": true}}'),
      ]);
  }
}
