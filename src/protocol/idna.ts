import { createRequire } from 'node:module';
import { mixedScripts } from './scripts.ts';

/**
 * Internationalized domain names: UTS #46 processing (non-transitional, strict flags) by `tr46`,
 * then the rules UTS #46 leaves to the registry: IDNA 2008's own repertoire (RFC 5892: UTS #46
 * accepts symbols and emoji that IDNA 2008 disallows), its CONTEXTO rules, canonical punycode,
 * and one script per label (UTS #39 "Highly Restrictive").
 *
 * Input is a host name already trimmed, with ASCII letters lowercased and without scheme or
 * trailing dot; `src/protocol/domain.ts` does that and the plain-ASCII fast path.
 */

interface Tr46Options {
  transitionalProcessing?: boolean;
  checkHyphens?: boolean;
  checkBidi?: boolean;
  checkJoiners?: boolean;
  useSTD3ASCIIRules?: boolean;
  verifyDNSLength?: boolean;
  ignoreInvalidPunycode?: boolean;
}

interface Tr46 {
  toASCII(domain: string, options?: Tr46Options): string | null;
  toUnicode(domain: string, options?: Tr46Options): { domain: string; error: boolean };
}

// tr46 is CommonJS without type declarations; these two functions are its whole API.
const tr46 = createRequire(import.meta.url)('tr46') as Tr46;

/** The UTS #46 flags IDNA 2008 registration needs. */
export const IDNA_OPTIONS = {
  transitionalProcessing: false,
  checkHyphens: true,
  checkBidi: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  verifyDNSLength: true,
} as const satisfies Tr46Options;

/** Why a name was refused, as a catalogue code: syntax, repertoire, scripts or punycode. */
export type DomainErrorCode =
  'invalid_domain' | 'domain_disallowed_characters' | 'domain_mixed_script' | 'domain_invalid_punycode';

export interface IdnaProblem {
  code: DomainErrorCode;
  /** Names the offending label, e.g. `label "pаypal" mixes Latin and Cyrillic`. */
  reason: string;
}

export type IdnaResult = { ascii: string; problem?: undefined } | { ascii?: undefined; problem: IdnaProblem };

/** The characters UTS #46 reads as label separators. */
const DOTS = /[.\u3002\uFF0E\uFF61]/;

/**
 * The ASCII (punycode) form of a host name, or why it is not a valid IDNA 2008 name. Labels already
 * in punycode are decoded and checked exactly like Unicode ones.
 */
export function idnaToAscii(host: string): IdnaResult {
  const ascii = tr46.toASCII(host, IDNA_OPTIONS);
  if (ascii === null) return { problem: diagnose(host) };
  const unicodeLabels = tr46.toUnicode(ascii, IDNA_OPTIONS).domain.split('.');
  const givenLabels = host.split(DOTS);
  for (const [i, label] of ascii.split('.').entries()) {
    if (!label.startsWith('xn--')) continue;
    const unicode = unicodeLabels[i] ?? label;
    // The label as given, mapped (a label given in its Unicode form usually needs no mapping).
    const given = givenLabels[i] ?? '';
    const mapped = given === unicode || !/\P{ASCII}/u.test(given) ? given : mapLabel(given);
    const aLabel = mapped.startsWith('xn--') ? mapped : undefined;
    // tr46 decodes an `xn--` label, checks it and encodes it again: another encoding of the same
    // label is not its A-label.
    if (aLabel !== undefined && aLabel !== label) return { problem: notCanonical(aLabel, unicode) };
    const problem = idna2008Problem(unicode, aLabel) ?? scriptProblem(unicode, aLabel);
    if (problem) return { problem };
  }
  return { ascii };
}

/**
 * A stored (ASCII) domain for display: its Unicode form. It stays as given when it is not valid
 * IDNA, and a label that IDNA 2008 or the script rule would refuse (stored before they applied)
 * stays in punycode, as browsers show it, so a look-alike is not displayed as what it imitates.
 */
export function toUnicodeDomain(ascii: string): string {
  if (!/xn--/i.test(ascii)) return ascii;
  const { domain, error } = tr46.toUnicode(ascii, IDNA_OPTIONS);
  if (error) return ascii;
  const asciiLabels = ascii.toLowerCase().split('.');
  return domain
    .split('.')
    .map((label, i) => (idna2008Problem(label) || scriptProblem(label) ? asciiLabels[i] : label))
    .join('.');
}

/**
 * UTS #46 mapping of one label (case folding, width, compatibility forms, NFC), without decoding
 * punycode. The leading `0` keeps tr46 from reading the label as punycode; no mark composes with it.
 */
function mapLabel(label: string): string {
  return tr46.toUnicode(`0${label}`).domain.slice(1);
}

// RFC 5892 (IDNA 2008 code points), for what UTS #46 leaves valid. UTS #46 has already mapped or
// refused what is unstable under NFKC case folding, default-ignorable, white space or a
// noncharacter, so what remains is: letters, digits and marks are PVALID, except the old Hangul
// jamo, the combining marks for symbols, the musical symbols and a few listed exceptions; the
// listed PVALID and CONTEXTO exceptions and the joiners (CONTEXTJ, checked by tr46) stay.
const NOT_IN_IDNA2008 =
  /[^\u200C-\u200D\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}a-z0-9\-\u00DF\u03C2\u06FD\u06FE\u0F0B\u3007\u00B7\u0375\u05F3\u05F4\u30FB]|[\u20D0-\u20FF\u{1D100}-\u{1D24F}\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\u0640\u07FA\u3031-\u3035\u303B]|\u302E|\u302F/u;

/** RFC 5892 appendix A.3–A.9: code points valid only in some contexts. */
const CONTEXTO = /[\u00B7\u0375\u05F3\u05F4\u30FB\u0660-\u0669\u06F0-\u06F9]/u;

/** Code points of a (mapped, Unicode) label that IDNA 2008 disallows, or used out of context. */
function idna2008Problem(label: string, aLabel?: string): IdnaProblem | undefined {
  const bad = NOT_IN_IDNA2008.exec(label);
  if (bad) return disallowed(label, aLabel, bad[0], 'which IDNA 2008 does not allow');
  if (!CONTEXTO.test(label)) return undefined;
  const chars = Array.from(label);
  for (const [i, ch] of chars.entries()) {
    if (!contextAllows(ch, chars[i - 1], chars[i + 1], label))
      return disallowed(label, aLabel, ch, 'outside the context IDNA 2008 allows it in');
  }
  return undefined;
}

function contextAllows(ch: string, before: string | undefined, after: string | undefined, label: string): boolean {
  switch (ch) {
    case '\u00B7': // MIDDLE DOT: only in l·l (Catalan)
      return before === 'l' && after === 'l';
    case '\u0375': // GREEK LOWER NUMERAL SIGN: before a Greek character
      return after !== undefined && /\p{sc=Greek}/u.test(after);
    case '\u05F3': // HEBREW GERESH, GERSHAYIM: after a Hebrew character
    case '\u05F4':
      return before !== undefined && /\p{sc=Hebrew}/u.test(before);
    case '\u30FB': // KATAKANA MIDDLE DOT: in a label with Hiragana, Katakana or Han
      return /[\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Han}]/u.test(label.replaceAll('\u30FB', ''));
    default:
      // ARABIC-INDIC and EXTENDED ARABIC-INDIC DIGITS: never both in one label
      if (/[\u0660-\u0669]/u.test(ch)) return !/[\u06F0-\u06F9]/u.test(label);
      if (/[\u06F0-\u06F9]/u.test(ch)) return !/[\u0660-\u0669]/u.test(label);
      return true;
  }
}

function scriptProblem(label: string, aLabel?: string): IdnaProblem | undefined {
  const scripts = mixedScripts(label);
  if (!scripts) return undefined;
  return { code: 'domain_mixed_script', reason: `${name(label, aLabel)} mixes ${list(scripts)}` };
}

/**
 * Why tr46 refused a name: the first label at fault and the rule it breaks. tr46 answers only
 * null, so the rules are checked again one at a time, in the order UTS #46 applies them.
 */
function diagnose(host: string): IdnaProblem {
  for (const label of host.split(DOTS).map(mapLabel)) {
    const problem = labelProblem(label);
    if (problem) return problem;
  }
  // The bidi rule (RFC 5893) holds for a whole name: once one label is right-to-left, every label
  // must follow it. A label follows it when it passes next to a Hebrew one.
  if (tr46.toASCII(host, { ...IDNA_OPTIONS, checkBidi: false }) !== null) {
    const labels = tr46.toUnicode(host, { ...IDNA_OPTIONS, checkBidi: false }).domain.split('.');
    const i = labels.findIndex(
      (l) => tr46.toASCII(`${l}.\u05D0`, { checkBidi: true, useSTD3ASCIIRules: true }) === null,
    );
    const given = mapLabel(host.split(DOTS)[i] ?? '');
    return {
      code: 'domain_disallowed_characters',
      reason: `${i < 0 ? 'it' : name(labels[i]!, given.startsWith('xn--') ? given : undefined)} breaks the IDNA 2008 bidi rule (RFC 5893): a label cannot mix right-to-left and left-to-right text, and beside right-to-left labels every label must start with a letter`,
    };
  }
  const unchecked = tr46.toASCII(host, { ...IDNA_OPTIONS, verifyDNSLength: false });
  if (unchecked !== null) {
    const long = unchecked.split('.').find((l) => l.length > 63);
    if (long !== undefined)
      return { code: 'invalid_domain', reason: `label "${show(long)}" is longer than 63 characters in its ASCII form` };
    if (unchecked.length > 253) return { code: 'invalid_domain', reason: 'it is longer than 253 characters' };
  }
  return { code: 'invalid_domain', reason: 'it is not a valid internationalized name' };
}

/** The first rule a mapped label breaks; a punycode label is decoded and checked as Unicode. */
function labelProblem(label: string): IdnaProblem | undefined {
  if (label === '') return { code: 'invalid_domain', reason: 'label "" is not a valid host name label' };
  if (!label.startsWith('xn--')) return uLabelProblem(label);
  const invalid = (why: string): IdnaProblem => ({
    code: 'domain_invalid_punycode',
    reason: `label "${show(label)}" is not valid punycode: ${why}`,
  });
  if (/\P{ASCII}/u.test(label)) return invalid('it has characters other than ASCII');
  // Undecodable punycode is left as it is when decoding errors are ignored.
  const decoded = tr46.toUnicode(label, { ignoreInvalidPunycode: true }).domain;
  if (decoded === label) return invalid('it does not decode');
  if (decoded === '') return invalid('it encodes nothing');
  if (!/\P{ASCII}/u.test(decoded)) return invalid(`it decodes to "${show(decoded)}", which needs no encoding`);
  const problem = charProblem(decoded, label);
  if (problem) return problem;
  if (mapLabel(decoded) !== decoded)
    return invalid(`it decodes to "${show(decoded)}", which is not in the normalized form IDNA requires`);
  const encoded = tr46.toASCII(decoded);
  if (encoded !== null && encoded !== label) return notCanonical(label, decoded);
  return uLabelProblem(decoded, label);
}

/** The first rule a Unicode label (mapped, or decoded from `aLabel`) breaks. */
function uLabelProblem(label: string, aLabel?: string): IdnaProblem | undefined {
  const syntax: IdnaProblem = {
    code: 'invalid_domain',
    reason: `${name(label, aLabel)} is not a valid host name label`,
  };
  if (/[^\x80-\u{10FFFF}a-z0-9-]/u.test(label)) return syntax;
  const problem = charProblem(label, aLabel);
  if (problem) return problem;
  if (label.startsWith('-') || label.endsWith('-')) return syntax;
  if (hasReservedHyphens(label)) return reservedHyphens(label, aLabel);
  if (/^\p{M}/u.test(label))
    return { code: 'domain_disallowed_characters', reason: `${name(label, aLabel)} begins with a combining mark` };
  if (tr46.toASCII(label, { checkJoiners: true }) === null) {
    const joiner = [...label].find((ch) => ch === '\u200C' || ch === '\u200D') ?? '\u200D';
    return disallowed(label, aLabel, joiner, 'outside the context IDNA 2008 allows it in');
  }
  return undefined;
}

/** A code point UTS #46 disallows (tr46 refuses it even alone) or IDNA 2008 does. */
function charProblem(label: string, aLabel?: string): IdnaProblem | undefined {
  for (const ch of label) {
    if (ch.codePointAt(0)! < 0x80) continue;
    if (tr46.toASCII(`0${ch}`, { useSTD3ASCIIRules: true }) === null)
      return disallowed(label, aLabel, ch, 'which IDNA 2008 does not allow');
  }
  return idna2008Problem(label, aLabel);
}

/** CheckHyphens: `--` in the third and fourth positions is kept for encodings like `xn--`. */
export function hasReservedHyphens(label: string): boolean {
  if (!label.includes('--')) return false;
  const [, , third, fourth] = label; // code points, not UTF-16 units
  return third === '-' && fourth === '-';
}

export function reservedHyphens(label: string, aLabel?: string): IdnaProblem {
  return {
    code: 'invalid_domain',
    reason: `${name(label, aLabel)} has hyphens in the third and fourth positions, which are reserved for encodings like xn--`,
  };
}

function notCanonical(label: string, unicode: string): IdnaProblem {
  return {
    code: 'domain_invalid_punycode',
    reason: `label "${show(label)}" is not valid punycode: it is not the canonical encoding of "${show(unicode)}"`,
  };
}

function disallowed(label: string, aLabel: string | undefined, ch: string, why: string): IdnaProblem {
  const visible = /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? ` "${ch}"` : '';
  return {
    code: 'domain_disallowed_characters',
    reason: `${name(label, aLabel)} contains ${codePoint(ch)}${visible}, ${why}`,
  };
}

/** `label "pаypal"`, or `label "xn--pypal-4ve" ("pаypal")` when it was given in punycode. */
function name(label: string, aLabel?: string): string {
  return aLabel === undefined ? `label "${show(label)}"` : `label "${show(aLabel)}" ("${show(label)}")`;
}

function list(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A label for a message: shortened, with invisible code points (joiners, controls) spelled out. */
function show(label: string): string {
  const shown = label.replace(/[\p{C}\p{Z}]|^\p{M}/gu, (ch) => `<${codePoint(ch)}>`);
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
