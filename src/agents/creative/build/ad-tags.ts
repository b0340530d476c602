import { escapeMarkup as e } from '../render/escape.ts';

/** The spot an ad tag plays, as the manifest gives it. */
export interface Spot {
  url: string;
  /** The file's MIME type (video/mp4, audio/mpeg...). */
  type: string;
  durationMs: number;
  width?: number | undefined;
  height?: number | undefined;
  bitrateKbps?: number | undefined;
}

export interface TagContent {
  /** Names the ad: the same creative gets the same id. */
  id: string;
  title: string;
  advertiser?: string | undefined;
  click?: string | undefined;
  impression?: string | undefined;
}

/** A URL as XML character data: a CDATA section, split where the URL itself holds its terminator. */
const cdata = (value: string) => `<![CDATA[${value.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;

/** HH:MM:SS.mmm, as VAST and DAAST write a linear ad's duration. */
export function clockTime(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(total / 3_600_000))}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)}.${pad(total % 1000, 3)}`;
}

/**
 * An InLine ad of one linear creative, as VAST and DAAST (its audio sibling) both write it: its
 * id, maker, title, advertiser and impression tracker, then the creative (opened by `creative`)
 * playing the spot, its media file with `mediaAttributes`, and `clicks`.
 */
function inLineAd(
  spot: Spot,
  content: TagContent,
  parts: { creative: string[]; mediaAttributes: string; clicks: string[] },
): string[] {
  return [
    `<Ad id="${e(content.id)}">`,
    '<InLine>',
    '<AdSystem version="1.0">ap creative builder</AdSystem>',
    `<AdTitle>${e(content.title)}</AdTitle>`,
    ...(content.advertiser ? [`<Advertiser>${e(content.advertiser)}</Advertiser>`] : []),
    ...(content.impression ? [`<Impression id="impression">${cdata(content.impression)}</Impression>`] : []),
    '<Creatives>',
    ...parts.creative,
    '<Linear>',
    `<Duration>${clockTime(spot.durationMs)}</Duration>`,
    '<MediaFiles>',
    `<MediaFile delivery="progressive" type="${e(spot.type)}"${parts.mediaAttributes}>${cdata(spot.url)}</MediaFile>`,
    '</MediaFiles>',
    ...parts.clicks,
    '</Linear>',
    '</Creative>',
    '</Creatives>',
    '</InLine>',
    '</Ad>',
  ];
}

const bitrateOf = (spot: Spot) => (spot.bitrateKbps ? ` bitrate="${spot.bitrateKbps}"` : '');

/**
 * A VAST 4.2 InLine ad playing the spot: one linear creative with its media file, clickthrough and
 * impression tracker. The UniversalAdId VAST 4 requires is the creative's own id, with no registry.
 */
export function vastXml(spot: Spot, content: TagContent): string {
  const size = spot.width && spot.height ? ` width="${spot.width}" height="${spot.height}"` : '';
  const ad = inLineAd(spot, content, {
    creative: [
      `<Creative id="${e(content.id)}" adId="${e(content.id)}">`,
      `<UniversalAdId idRegistry="unknown">${e(content.id)}</UniversalAdId>`,
    ],
    mediaAttributes: `${size}${bitrateOf(spot)}`,
    clicks: content.click
      ? ['<VideoClicks>', `<ClickThrough id="clickthrough">${cdata(content.click)}</ClickThrough>`, '</VideoClicks>']
      : [],
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<VAST version="4.2" xmlns="http://www.iab.com/VAST">',
    ...ad,
    '</VAST>',
    '',
  ].join('\n');
}

/** A DAAST 1.0 InLine ad playing the audio spot, with its clickthrough (for players with a screen) and impression tracker. */
export function daastXml(spot: Spot, content: TagContent): string {
  const ad = inLineAd(spot, content, {
    creative: [`<Creative id="${e(content.id)}">`],
    mediaAttributes: bitrateOf(spot),
    clicks: content.click
      ? ['<AudioInteractions>', `<ClickThrough>${cdata(content.click)}</ClickThrough>`, '</AudioInteractions>']
      : [],
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<DAAST version="1.0">', ...ad, '</DAAST>', ''].join('\n');
}
