import type { Asset, Format, FormatType, Render } from './format.ts';

/** A standard format before it is given the URL of the creative agent that defines it. */
interface Definition {
  id: string;
  name: string;
  description: string;
  type: FormatType;
  renders?: Render[];
  assets: Asset[];
}

const clickthrough: Asset = {
  item_type: 'individual',
  asset_id: 'click_url',
  asset_type: 'url',
  asset_role: 'clickthrough',
  required: true,
  requirements: { role: 'clickthrough', protocols: ['https'], max_length: 2048, macro_support: true },
};

const impressionTracker: Asset = {
  item_type: 'individual',
  asset_id: 'impression_tracker',
  asset_type: 'url',
  asset_role: 'third_party_tracking',
  required: false,
  requirements: { role: 'impression_tracker', protocols: ['https'], macro_support: true },
};

/** The IAB fixed-size banner: one static or animated image of exactly its size. */
function banner(width: number, height: number): Pick<Definition, 'renders' | 'assets'> {
  return {
    renders: [{ role: 'primary', dimensions: { width, height, unit: 'px', responsive: { width: false, height: false } } }],
    assets: [
      {
        item_type: 'individual',
        asset_id: 'banner_image',
        asset_type: 'image',
        asset_role: 'hero_image',
        required: true,
        requirements: {
          min_width: width, max_width: width, min_height: height, max_height: height, unit: 'px',
          formats: ['jpg', 'png', 'gif', 'webp'], max_file_size_kb: 150, animation_allowed: true, max_animation_duration_ms: 15_000,
        },
      },
      clickthrough,
      impressionTracker,
    ],
  };
}

/** In-stream video plays in the publisher's player, at whatever size it has: 16:9, scaled to fit. */
const playerRender: Render[] = [{ role: 'primary', dimensions: { min_width: 640, min_height: 360, aspect_ratio: '16:9', responsive: { width: true, height: true } } }];

function onlineVideo(seconds: number): Asset {
  return {
    item_type: 'individual',
    asset_id: 'video_file',
    asset_type: 'video',
    asset_role: 'hero_video',
    required: true,
    requirements: {
      min_duration_ms: seconds * 1000 - 500, max_duration_ms: seconds * 1000 + 500,
      min_width: 1280, min_height: 720, aspect_ratio: '16:9', containers: ['mp4', 'webm'], codecs: ['h264', 'vp9'],
      min_bitrate_kbps: 2000, max_file_size_kb: 51_200, audio_required: true, audio_codecs: ['aac', 'opus'],
    },
  };
}

const definitions: Definition[] = [
  {
    id: 'display_300x250',
    name: 'Medium Rectangle 300x250',
    description: 'IAB medium rectangle: a 300x250 image (JPG, PNG, GIF or WebP, at most 150 KB, animation up to 15 s) with a clickthrough URL.',
    type: 'display',
    ...banner(300, 250),
  },
  {
    id: 'display_728x90',
    name: 'Leaderboard 728x90',
    description: 'IAB leaderboard across the top of a desktop page: a 728x90 image (at most 150 KB) with a clickthrough URL.',
    type: 'display',
    ...banner(728, 90),
  },
  {
    id: 'display_320x50',
    name: 'Mobile Banner 320x50',
    description: 'IAB mobile banner at the top or bottom of a phone screen: a 320x50 image (at most 150 KB) with a clickthrough URL.',
    type: 'display',
    ...banner(320, 50),
  },
  {
    id: 'display_160x600',
    name: 'Wide Skyscraper 160x600',
    description: 'IAB wide skyscraper in a page sidebar: a 160x600 image (at most 150 KB) with a clickthrough URL.',
    type: 'display',
    ...banner(160, 600),
  },
  {
    id: 'display_300x600',
    name: 'Half Page 300x600',
    description: 'IAB half page, a large sidebar unit: a 300x600 image (at most 150 KB) with a clickthrough URL.',
    type: 'display',
    ...banner(300, 600),
  },
  {
    id: 'video_15s',
    name: 'Online Video 15s',
    description: 'Skippable or non-skippable in-stream video of 15 seconds: a 16:9 MP4 or WebM file (at least 1280x720, with sound), shown in the player at its size.',
    type: 'video',
    renders: playerRender,
    assets: [onlineVideo(15), { ...clickthrough, required: false }, impressionTracker],
  },
  {
    id: 'video_30s',
    name: 'Online Video 30s',
    description: 'In-stream video of 30 seconds: a 16:9 MP4 or WebM file (at least 1280x720, with sound), shown in the player at its size.',
    type: 'video',
    renders: playerRender,
    assets: [onlineVideo(30), { ...clickthrough, required: false }, impressionTracker],
  },
  {
    id: 'ctv_video_30s',
    name: 'CTV Video 30s',
    description: 'Full-screen, non-skippable 30-second spot on connected TV: a 1920x1080 broadcast-quality MP4 (H.264 or H.265, at least 10 Mbps, loudness -24 LUFS). Not clickable.',
    type: 'video',
    renders: [{ role: 'primary', dimensions: { width: 1920, height: 1080, unit: 'px', aspect_ratio: '16:9', responsive: { width: false, height: false } } }],
    assets: [
      {
        item_type: 'individual',
        asset_id: 'video_file',
        asset_type: 'video',
        asset_role: 'hero_video',
        required: true,
        requirements: {
          min_duration_ms: 29_500, max_duration_ms: 30_500, min_width: 1920, max_width: 1920, min_height: 1080, max_height: 1080, aspect_ratio: '16:9',
          containers: ['mp4'], codecs: ['h264', 'h265'], min_bitrate_kbps: 10_000, frame_rates: [23.976, 25, 29.97], scan_type: 'progressive',
          audio_required: true, audio_codecs: ['aac'], audio_sample_rates: [48_000], loudness_lufs: -24, loudness_tolerance_db: 2,
        },
      },
      impressionTracker,
    ],
  },
  {
    id: 'audio_30s',
    name: 'Audio 30s',
    description: 'A 30-second audio spot for streaming radio and podcasts: MP3 or AAC (M4A), at least 128 kbps, mono or stereo, with an optional clickthrough for players with a screen.',
    type: 'audio',
    assets: [
      {
        item_type: 'individual',
        asset_id: 'audio_file',
        asset_type: 'audio',
        asset_role: 'hero_audio',
        required: true,
        requirements: {
          min_duration_ms: 29_500, max_duration_ms: 30_500, formats: ['mp3', 'aac'], min_bitrate_kbps: 128,
          sample_rates: [44_100, 48_000], channels: ['mono', 'stereo'], max_file_size_kb: 10_240,
        },
      },
      { ...clickthrough, required: false },
      impressionTracker,
    ],
  },
  {
    id: 'native_in_feed',
    name: 'Native In-Feed',
    description: 'A sponsored post in a content feed, laid out by the publisher from a headline, body text, a 1.91:1 image, the advertiser’s name and logo, and a call to action; it takes the feed’s width.',
    type: 'display',
    renders: [{ role: 'primary', dimensions: { min_width: 300, max_width: 1200, responsive: { width: true, height: true } } }],
    assets: [
      { item_type: 'individual', asset_id: 'headline', asset_type: 'text', asset_role: 'headline', required: true, requirements: { min_length: 1, max_length: 50, max_lines: 2 } },
      { item_type: 'individual', asset_id: 'body', asset_type: 'text', asset_role: 'body_text', required: true, requirements: { max_length: 140 } },
      {
        item_type: 'individual', asset_id: 'main_image', asset_type: 'image', asset_role: 'hero_image', required: true,
        requirements: { min_width: 1200, min_height: 627, aspect_ratio: '1.91:1', formats: ['jpg', 'png', 'webp'], max_file_size_kb: 500, animation_allowed: false },
      },
      { item_type: 'individual', asset_id: 'sponsor_name', asset_type: 'text', asset_role: 'advertiser_name', required: true, requirements: { min_length: 1, max_length: 25 } },
      {
        item_type: 'individual', asset_id: 'logo', asset_type: 'image', asset_role: 'logo', required: false,
        requirements: { min_width: 100, min_height: 100, aspect_ratio: '1:1', formats: ['png', 'jpg', 'webp'], max_file_size_kb: 100 },
      },
      { item_type: 'individual', asset_id: 'cta', asset_type: 'text', asset_role: 'call_to_action', required: false, requirements: { max_length: 15 } },
      clickthrough,
      impressionTracker,
    ],
  },
  {
    id: 'dooh_1920x1080',
    name: 'Digital Out-of-Home 1920x1080',
    description: 'A landscape full-HD digital screen in a public venue: a static 1920x1080 image shown for a 10-second slot in the screen’s loop. Not clickable; the tracker fires on each play.',
    type: 'dooh',
    renders: [{ role: 'primary', dimensions: { width: 1920, height: 1080, unit: 'px', aspect_ratio: '16:9', responsive: { width: false, height: false } } }],
    assets: [
      {
        item_type: 'individual', asset_id: 'screen_image', asset_type: 'image', asset_role: 'hero_image', required: true,
        requirements: { min_width: 1920, max_width: 1920, min_height: 1080, max_height: 1080, unit: 'px', formats: ['jpg', 'png'], color_space: 'rgb', max_file_size_kb: 10_240, animation_allowed: false },
      },
      { ...impressionTracker, asset_role: 'proof_of_play' },
    ],
  },
];

/**
 * The standard formats, defined by the creative agent at `creativeAgentUrl` (the URL in each
 * format_id). Each call answers fresh objects, so a caller may change what it got.
 */
export function standardFormats(creativeAgentUrl: string): Format[] {
  return definitions.map(({ id, ...definition }) => {
    const format: Format = { format_id: { agent_url: creativeAgentUrl, id }, ...structuredClone(definition) };
    format.assets_required = definition.assets.filter((asset) => asset.required).map((asset) => structuredClone(asset));
    return format;
  });
}
