/**
 * The scripts of a domain label, from the runtime's own Unicode data (regular-expression property
 * escapes), and the mixed-script rule the registry applies to labels: UTS #39 "Highly Restrictive".
 *
 * Characters of the Common and Inherited scripts (digits, the hyphen, most combining marks) belong
 * to no script here. A character used by several scripts (its Script_Extensions, e.g. the prolonged
 * sound mark ー of Hiragana and Katakana) belongs to each of them.
 */

/** Every value of the Unicode Script property but Common and Inherited, by its long name. */
const SCRIPT_NAMES = [
  'Adlam',
  'Caucasian_Albanian',
  'Ahom',
  'Arabic',
  'Imperial_Aramaic',
  'Armenian',
  'Avestan',
  'Balinese',
  'Bamum',
  'Bassa_Vah',
  'Batak',
  'Bengali',
  'Beria_Erfe',
  'Bhaiksuki',
  'Bopomofo',
  'Brahmi',
  'Braille',
  'Buginese',
  'Buhid',
  'Chakma',
  'Canadian_Aboriginal',
  'Carian',
  'Cham',
  'Cherokee',
  'Chisoi',
  'Chorasmian',
  'Coptic',
  'Cypro_Minoan',
  'Cypriot',
  'Cyrillic',
  'Devanagari',
  'Dives_Akuru',
  'Dogra',
  'Deseret',
  'Duployan',
  'Egyptian_Hieroglyphs',
  'Elbasan',
  'Elymaic',
  'Ethiopic',
  'Garay',
  'Georgian',
  'Glagolitic',
  'Gunjala_Gondi',
  'Masaram_Gondi',
  'Gothic',
  'Grantha',
  'Greek',
  'Gujarati',
  'Gurung_Khema',
  'Gurmukhi',
  'Hangul',
  'Han',
  'Hanunoo',
  'Hatran',
  'Hebrew',
  'Hiragana',
  'Anatolian_Hieroglyphs',
  'Pahawh_Hmong',
  'Nyiakeng_Puachue_Hmong',
  'Old_Hungarian',
  'Old_Italic',
  'Javanese',
  'Kayah_Li',
  'Katakana',
  'Kawi',
  'Kharoshthi',
  'Khmer',
  'Khojki',
  'Khitan_Small_Script',
  'Kannada',
  'Kirat_Rai',
  'Kaithi',
  'Tai_Tham',
  'Lao',
  'Latin',
  'Lepcha',
  'Limbu',
  'Linear_A',
  'Linear_B',
  'Lisu',
  'Lycian',
  'Lydian',
  'Mahajani',
  'Makasar',
  'Mandaic',
  'Manichaean',
  'Marchen',
  'Medefaidrin',
  'Mende_Kikakui',
  'Meroitic_Cursive',
  'Meroitic_Hieroglyphs',
  'Malayalam',
  'Modi',
  'Mongolian',
  'Mro',
  'Meetei_Mayek',
  'Multani',
  'Myanmar',
  'Nag_Mundari',
  'Nandinagari',
  'Old_North_Arabian',
  'Nabataean',
  'Newa',
  'Nko',
  'Nushu',
  'Ogham',
  'Ol_Chiki',
  'Ol_Onal',
  'Old_Turkic',
  'Oriya',
  'Osage',
  'Osmanya',
  'Old_Uyghur',
  'Palmyrene',
  'Pau_Cin_Hau',
  'Old_Permic',
  'Phags_Pa',
  'Inscriptional_Pahlavi',
  'Psalter_Pahlavi',
  'Phoenician',
  'Miao',
  'Inscriptional_Parthian',
  'Rejang',
  'Hanifi_Rohingya',
  'Runic',
  'Samaritan',
  'Old_South_Arabian',
  'Saurashtra',
  'SignWriting',
  'Shavian',
  'Sharada',
  'Siddham',
  'Sidetic',
  'Khudawadi',
  'Sinhala',
  'Sogdian',
  'Old_Sogdian',
  'Sora_Sompeng',
  'Soyombo',
  'Sundanese',
  'Sunuwar',
  'Syloti_Nagri',
  'Syriac',
  'Tagbanwa',
  'Takri',
  'Tai_Le',
  'New_Tai_Lue',
  'Tamil',
  'Tangut',
  'Tai_Viet',
  'Tai_Yo',
  'Telugu',
  'Tifinagh',
  'Tagalog',
  'Thaana',
  'Thai',
  'Tibetan',
  'Tirhuta',
  'Tangsa',
  'Todhri',
  'Tolong_Siki',
  'Toto',
  'Tulu_Tigalari',
  'Ugaritic',
  'Vai',
  'Vithkuqi',
  'Warang_Citi',
  'Wancho',
  'Old_Persian',
  'Cuneiform',
  'Yezidi',
  'Yi',
  'Zanabazar_Square',
  'Unknown',
];

interface ScriptTest {
  name: string;
  /** The script's name for people: `Old_Italic` → `Old Italic`. */
  display: string;
  script: RegExp;
  extensions: RegExp;
}

/** The scripts this runtime's Unicode data knows; a name newer than the runtime is left out. */
const SCRIPTS: ScriptTest[] = SCRIPT_NAMES.flatMap((name) => {
  try {
    return [
      {
        name,
        display: name.replaceAll('_', ' '),
        script: new RegExp(`^\\p{sc=${name}}$`, 'u'),
        extensions: new RegExp(`^\\p{scx=${name}}$`, 'u'),
      },
    ];
  } catch {
    return [];
  }
});

/** Characters whose Script_Extensions is only Common or only Inherited: they count for no script. */
const NO_SCRIPT = /^[\p{scx=Zyyy}\p{scx=Zinh}]$/u;

interface CharScripts {
  /** The Script property, or undefined for Common and Inherited. */
  script: ScriptTest | undefined;
  /** The Script_Extensions property; empty when the character counts for no script. */
  extensions: readonly ScriptTest[];
}

const LATIN = SCRIPTS.find((s) => s.name === 'Latin')!;
const NEWER: ScriptTest = {
  name: 'Newer',
  display: 'a script newer than this registry',
  script: /$^/u,
  extensions: /$^/u,
};
const NONE: CharScripts = { script: undefined, extensions: [] };
const LATIN_LETTER: CharScripts = { script: LATIN, extensions: [LATIN] };

/** Looking a character up runs one test per script, so results are kept (bounded). */
const cache = new Map<number, CharScripts>();
const CACHE_LIMIT = 10_000;

function charScripts(ch: string): CharScripts {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) ? LATIN_LETTER : NONE;
  const known = cache.get(cp);
  if (known) return known;
  let found = NONE;
  if (!NO_SCRIPT.test(ch)) {
    const extensions = SCRIPTS.filter((s) => s.extensions.test(ch));
    // A script newer than SCRIPT_NAMES still counts, as one of its own.
    found =
      extensions.length > 0
        ? { script: SCRIPTS.find((s) => s.script.test(ch)), extensions }
        : { script: NEWER, extensions: [NEWER] };
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(cp, found);
  return found;
}

/**
 * The scripts of a label's characters (their Script property), in order of first appearance, with
 * Common and Inherited left out: `labelScripts('pаypal')` (Cyrillic а) is `['Latin', 'Cyrillic']`.
 */
export function labelScripts(label: string): string[] {
  const found = new Set<ScriptTest>();
  for (const ch of label) {
    const { script, extensions } = charScripts(ch);
    if (script) found.add(script);
    else if (extensions.length === 1) found.add(extensions[0]!);
  }
  return [...found].map((s) => s.display);
}

/** UTS #39: scripts that are written together with others, as one "augmented" script each. */
const AUGMENTED: Record<string, string[]> = {
  Han: ['Han', 'Jpan', 'Hanb', 'Kore'],
  Hiragana: ['Hiragana', 'Jpan'],
  Katakana: ['Katakana', 'Jpan'],
  Hangul: ['Hangul', 'Kore'],
  Bopomofo: ['Bopomofo', 'Hanb'],
};

/** UTS #39 "Highly Restrictive": the mixes allowed besides a single script. */
const ALLOWED_MIXES = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/**
 * The scripts a label mixes when the mix is not one UTS #39 "Highly Restrictive" allows, else
 * undefined. Allowed: a single script (after Han, Hiragana and Katakana count as Japanese, Han and
 * Bopomofo as Chinese, Han and Hangul as Korean) or a label covered by Latin + Han + Hiragana +
 * Katakana, Latin + Han + Bopomofo or Latin + Han + Hangul.
 */
export function mixedScripts(label: string): string[] | undefined {
  const sets: Array<readonly ScriptTest[]> = [];
  let single = true;
  for (const ch of label) {
    const { extensions } = charScripts(ch);
    if (extensions.length === 0) continue;
    if (single && sets.length > 0 && !sameOrSubset(sets[sets.length - 1]!, extensions)) single = false;
    sets.push(extensions);
  }
  if (single || sets.length < 2) return undefined;
  if (resolvedScripts(sets).size > 0) return undefined;
  if (ALLOWED_MIXES.some((mix) => sets.every((set) => set.some((s) => mix.has(s.name))))) return undefined;
  const scripts = labelScripts(label);
  if (scripts.length >= 2) return scripts;
  return [...new Set(sets.flat().map((s) => s.display))];
}

/** A quick pass for the usual case, a label of one script: each set equals the one before. */
function sameOrSubset(previous: readonly ScriptTest[], next: readonly ScriptTest[]): boolean {
  return previous.length === 1 && next.length === 1 && previous[0] === next[0];
}

/** UTS #39 resolved script set: the scripts (augmented) every counted character belongs to. */
function resolvedScripts(sets: Array<readonly ScriptTest[]>): Set<string> {
  const augment = (set: readonly ScriptTest[]) => new Set(set.flatMap((s) => AUGMENTED[s.name] ?? [s.name]));
  let resolved = augment(sets[0]!);
  for (const set of sets.slice(1)) {
    const next = augment(set);
    resolved = new Set([...resolved].filter((s) => next.has(s)));
    if (resolved.size === 0) break;
  }
  return resolved;
}

/** For tests: the script names this runtime knows, Common and Inherited included. */
export function knownScripts(): string[] {
  return [...SCRIPTS.map((s) => s.name), 'Common', 'Inherited'];
}
