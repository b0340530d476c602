import { Parser } from 'htmlparser2';

export interface MediaFile {
  url: string;
  type: string;
  apiFramework: string;
  delivery: string;
}

export interface AdTag {
  /** The linear ad's media files, in the document's order. */
  mediaFiles: MediaFile[];
  /** A wrapper's tag URL (VASTAdTagURI, DAAST's AdTagURI): the ad lives at that address. */
  wrapperUrl?: string;
}

/** Larger than any inline tag a manifest should carry: not parsed, shown as a player naming nothing. */
const maxTagLength = 1024 * 1024;

/**
 * The media files and wrapper URL of a VAST or DAAST document (their InLine/Wrapper shapes are
 * the same). htmlparser2 in XML mode reads CDATA sections, which is how media file URLs are
 * usually written, and expands no external entities.
 */
export function readAdTag(xml: string): AdTag {
  const tag: AdTag = { mediaFiles: [] };
  if (xml.length > maxTagLength) return tag;
  let current: MediaFile | undefined;
  let inWrapperUrl = false;
  let text = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const lower = name.toLowerCase();
        if (lower === 'mediafile') {
          current = {
            url: '',
            type: (attributes.type ?? '').toLowerCase(),
            apiFramework: (attributes.apiFramework ?? attributes.apiframework ?? '').toLowerCase(),
            delivery: (attributes.delivery ?? '').toLowerCase(),
          };
          text = '';
        } else if (lower === 'vastadtaguri' || lower === 'adtaguri') {
          inWrapperUrl = true;
          text = '';
        }
      },
      ontext(chunk) {
        if (current || inWrapperUrl) text += chunk;
      },
      onclosetag(name) {
        const lower = name.toLowerCase();
        if (lower === 'mediafile' && current) {
          tag.mediaFiles.push({ ...current, url: text.trim() });
          current = undefined;
        } else if (inWrapperUrl && (lower === 'vastadtaguri' || lower === 'adtaguri')) {
          tag.wrapperUrl ??= text.trim();
          inWrapperUrl = false;
        }
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  return tag;
}

const playable = {
  video: ['video/mp4', 'video/webm', 'video/ogg'],
  audio: ['audio/mpeg', 'audio/mp3', 'audio/mp4', 'audio/aac', 'audio/x-m4a', 'audio/ogg', 'audio/wav'],
};

/**
 * The media file a browser's own player can play: progressive downloads before streaming ones
 * (HLS and the like, which most browsers do not play natively), then by the order of `playable`; no VPAID or other interactive units (they are scripts).
 * Each URL is vetted by `accept` (macros, scheme); one it refuses is passed over.
 */
export function playableFile(
  files: readonly MediaFile[],
  kind: 'video' | 'audio',
  accept: (url: string) => string | undefined,
): string | undefined {
  const types = playable[kind];
  const ranked = files
    .filter((f) => f.apiFramework === '' && (f.type === '' || types.includes(f.type)))
    .map((f) => ({
      f,
      rank: (f.delivery === 'streaming' ? 100 : 0) + (f.type === '' ? types.length : types.indexOf(f.type)),
    }))
    .sort((a, b) => a.rank - b.rank);
  for (const { f } of ranked) {
    const url = accept(f.url);
    if (url) return url;
  }
  return undefined;
}
