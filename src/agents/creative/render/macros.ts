import { createHash } from 'node:crypto';
import type { CreativeManifest } from '../../formats/index.ts';

/**
 * `{MACRO}` as universal-macro.json names them, and `${MACRO}`, the spelling
 * url-asset-requirements.json's macro_support shows. Names are upper case as every universal macro
 * is; anything else in braces (an RFC 6570 `{?query}`) is not a macro here.
 */
const macroPattern = /\$?\{([A-Z][A-Z0-9_]*)\}/g;

export interface Macros {
  /** Values put into text as they are (escaping is the markup's business). */
  text(input: string): string;
  /** Values URL-encoded, for URLs and for markup or script content, where they nearly always sit in a URL. */
  url(input: string): string;
}

/**
 * The preview's macro values: the caller's, over defaults for the ones a renderer can know
 * (AD_WIDTH and AD_HEIGHT, PLAYER_* for players, CACHEBUSTER). The cache buster is derived from
 * the manifest so that the same preview renders the same bytes. Macros without a value are left as
 * written.
 */
export function macrosFor(
  manifest: CreativeManifest,
  size: { width: number; height: number },
  given: Record<string, string> = {},
  player = false,
): Macros {
  const values = new Map<string, string>([
    ['AD_WIDTH', String(size.width)],
    ['AD_HEIGHT', String(size.height)],
    ...(player
      ? ([
          ['PLAYER_WIDTH', String(size.width)],
          ['PLAYER_HEIGHT', String(size.height)],
        ] as const)
      : []),
  ]);
  for (const [name, value] of Object.entries(given)) if (typeof value === 'string') values.set(name, value);
  const substitute = (input: string, encode: (value: string) => string) =>
    input.includes('{')
      ? input.replace(macroPattern, (written, name: string) => {
          if (name === 'CACHEBUSTER' && !values.has(name)) values.set(name, cacheBuster(manifest));
          const value = values.get(name);
          return value === undefined ? written : encode(value);
        })
      : input;
  return { text: (input) => substitute(input, (v) => v), url: (input) => substitute(input, encodeURIComponent) };
}

/** Eight digits from the manifest's content: stable for one creative, different between creatives. */
function cacheBuster(manifest: CreativeManifest): string {
  const digest = createHash('sha256').update(JSON.stringify(manifest)).digest();
  return String(digest.readUInt32BE(0) % 100_000_000).padStart(8, '0');
}
