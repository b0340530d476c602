import { deepFreeze } from '../catalog-files/index.ts';
import type { Asset, Format, FormatType, Render } from './format.ts';

/** A standard format before it is given the URL of the creative agent that defines it. */
interface Definition {
  id: string;
  name: string;
  description: string;
  type: FormatType;
  renders?: Render[];
  assets: Asset[];
  supported_macros: string[];
}

// Universal macros (enums/universal-macro.json) by what a placement knows when it serves the ad.
const delivery = ['MEDIA_BUY_ID', 'PACKAGE_ID', 'CREATIVE_ID', 'CACHEBUSTER', 'TIMESTAMP'];
const privacy = ['GDPR', 'GDPR_CONSENT', 'US_PRIVACY', 'GPP_STRING', 'GPP_SID', 'LIMIT_AD_TRACKING'];
const device = ['DEVICE_TYPE', 'OS', 'OS_VERSION'];
const region = ['COUNTRY', 'REGION', 'DMA'];
const site = ['DOMAIN', 'PAGE_URL', 'APP_BUNDLE', 'APP_NAME', 'PLACEMENT_ID'];
const slot = ['AD_WIDTH', 'AD_HEIGHT'];
const content = ['VIDEO_ID', 'VIDEO_TITLE', 'VIDEO_DURATION', 'VIDEO_CATEGORY', 'CONTENT_GENRE', 'CONTENT_RATING'];
const player = ['PLAYER_WIDTH', 'PLAYER_HEIGHT', 'POD_POSITION', 'POD_SIZE', 'AD_BREAK_ID'];
/** A TV set has no page and no click, but the app and the device identify it. */
const tvDevice = ['DEVICE_MAKE', 'DEVICE_MODEL', 'DEVICE_ID', 'DEVICE_ID_TYPE', 'APP_BUNDLE', 'APP_NAME'];
const listening = [
  'APP_BUNDLE',
  'APP_NAME',
  'CONTENT_GENRE',
  'STATION_ID',
  'COLLECTION_NAME',
  'INSTALLMENT_ID',
  'AUDIO_DURATION',
  'POD_POSITION',
  'POD_SIZE',
  'AD_BREAK_ID',
];
/** A screen in a venue has no viewer to ask consent of, but a fixed place. */
const venue = ['CITY', 'ZIP', 'LAT', 'LONG', 'PLACEMENT_ID'];

const macros = (...groups: string[][]) => [...new Set(groups.flat())];

const displayMacros = macros(delivery, ['CLICK_URL'], privacy, device, region, site, slot);
const nativeMacros = macros(delivery, ['CLICK_URL'], privacy, device, region, site);
const videoMacros = macros(delivery, ['CLICK_URL'], privacy, device, region, site, content, player);
const ctvMacros = macros(delivery, privacy, device, tvDevice, region, content, player);
const audioMacros = macros(delivery, ['CLICK_URL'], privacy, device, region, listening);
const doohMacros = macros(delivery, ['DEVICE_TYPE'], region, venue, slot);

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

const fixedRender = (width: number, height: number): Render[] => [
  { role: 'primary', dimensions: { width, height, unit: 'px', responsive: { width: false, height: false } } },
];

/** The IAB fixed-size banner: one static or animated image of exactly its size. */
function banner(width: number, height: number): Pick<Definition, 'renders' | 'assets' | 'supported_macros'> {
  return {
    renders: fixedRender(width, height),
    assets: [
      {
        item_type: 'individual',
        asset_id: 'banner_image',
        asset_type: 'image',
        asset_role: 'hero_image',
        required: true,
        requirements: {
          min_width: width,
          max_width: width,
          min_height: height,
          max_height: height,
          unit: 'px',
          formats: ['jpg', 'png', 'gif', 'webp'],
          max_file_size_kb: 150,
          animation_allowed: true,
          max_animation_duration_ms: 15_000,
        },
      },
      clickthrough,
      impressionTracker,
    ],
    supported_macros: displayMacros,
  };
}

/**
 * An HTML5 banner of a fixed size: the HTML document runs in a SafeFrame and may load what it
 * needs (IAB's 200 KB initial load); the backup image shows where scripts cannot run.
 */
function html5(width: number, height: number): Pick<Definition, 'renders' | 'assets' | 'supported_macros'> {
  return {
    renders: fixedRender(width, height),
    assets: [
      {
        item_type: 'individual',
        asset_id: 'html_creative',
        asset_type: 'html',
        asset_role: 'hero_html',
        required: true,
        requirements: { max_file_size_kb: 200, sandbox: 'safeframe', external_resources_allowed: true },
      },
      {
        item_type: 'individual',
        asset_id: 'backup_image',
        asset_type: 'image',
        asset_role: 'backup_image',
        required: true,
        requirements: {
          min_width: width,
          max_width: width,
          min_height: height,
          max_height: height,
          unit: 'px',
          formats: ['jpg', 'png', 'gif'],
          max_file_size_kb: 50,
          animation_allowed: false,
        },
      },
      clickthrough,
      impressionTracker,
    ],
    supported_macros: displayMacros,
  };
}

/** In-stream video plays in the publisher's player, at whatever size it has: 16:9, scaled to fit. */
const playerRender: Render[] = [
  {
    role: 'primary',
    dimensions: { min_width: 640, min_height: 360, aspect_ratio: '16:9', responsive: { width: true, height: true } },
  },
];

/** Half a second either way: encoders round a spot's length to whole frames. */
const lasting = (seconds: number) => ({ min_duration_ms: seconds * 1000 - 500, max_duration_ms: seconds * 1000 + 500 });

function onlineVideo(seconds: number): Asset {
  return {
    item_type: 'individual',
    asset_id: 'video_file',
    asset_type: 'video',
    asset_role: 'hero_video',
    required: true,
    requirements: {
      ...lasting(seconds),
      min_width: 1280,
      min_height: 720,
      aspect_ratio: '16:9',
      containers: ['mp4', 'webm'],
      codecs: ['h264', 'vp9'],
      min_bitrate_kbps: 2000,
      max_file_size_kb: 51_200,
      audio_required: true,
      audio_codecs: ['aac', 'opus'],
    },
  };
}

/**
 * A VAST tag from the buyer's ad server, by URL or inline; the player asks it for the media, so the
 * tag's own clickthrough and trackers apply. Its duration, when the manifest states one, is the
 * linear creative's.
 */
function vastTag(seconds: number): Asset {
  return {
    item_type: 'individual',
    asset_id: 'vast_tag',
    asset_type: 'vast',
    asset_role: 'hero_video',
    required: true,
    requirements: { ...lasting(seconds) },
  };
}

/** Connected TV plays the spot full screen. */
const tvRender: Render[] = [
  {
    role: 'primary',
    dimensions: {
      width: 1920,
      height: 1080,
      unit: 'px',
      aspect_ratio: '16:9',
      responsive: { width: false, height: false },
    },
  },
];

function ctvVideo(seconds: number): Asset {
  return {
    item_type: 'individual',
    asset_id: 'video_file',
    asset_type: 'video',
    asset_role: 'hero_video',
    required: true,
    requirements: {
      ...lasting(seconds),
      min_width: 1920,
      max_width: 1920,
      min_height: 1080,
      max_height: 1080,
      aspect_ratio: '16:9',
      containers: ['mp4'],
      codecs: ['h264', 'h265'],
      min_bitrate_kbps: 10_000,
      frame_rates: [23.976, 25, 29.97],
      scan_type: 'progressive',
      audio_required: true,
      audio_codecs: ['aac'],
      audio_sample_rates: [48_000],
      loudness_lufs: -24,
      loudness_tolerance_db: 2,
    },
  };
}

function hostedAudio(seconds: number): Asset {
  return {
    item_type: 'individual',
    asset_id: 'audio_file',
    asset_type: 'audio',
    asset_role: 'hero_audio',
    required: true,
    requirements: {
      ...lasting(seconds),
      formats: ['mp3', 'aac'],
      min_bitrate_kbps: 128,
      sample_rates: [44_100, 48_000],
      channels: ['mono', 'stereo'],
      max_file_size_kb: 10_240,
    },
  };
}

function daastTag(seconds: number): Asset {
  return {
    item_type: 'individual',
    asset_id: 'daast_tag',
    asset_type: 'daast',
    asset_role: 'hero_audio',
    required: true,
    requirements: { daast_version: '1.0', ...lasting(seconds) },
  };
}

/** A digital screen in a public venue: a still image of exactly the screen's size. */
function screen(width: number, height: number): Pick<Definition, 'renders' | 'assets' | 'supported_macros'> {
  return {
    renders: [
      {
        role: 'primary',
        dimensions: {
          width,
          height,
          unit: 'px',
          aspect_ratio: width > height ? '16:9' : '9:16',
          responsive: { width: false, height: false },
        },
      },
    ],
    assets: [
      {
        item_type: 'individual',
        asset_id: 'screen_image',
        asset_type: 'image',
        asset_role: 'hero_image',
        required: true,
        requirements: {
          min_width: width,
          max_width: width,
          min_height: height,
          max_height: height,
          unit: 'px',
          formats: ['jpg', 'png'],
          color_space: 'rgb',
          max_file_size_kb: 10_240,
          animation_allowed: false,
        },
      },
      { ...impressionTracker, asset_role: 'proof_of_play' },
    ],
    supported_macros: doohMacros,
  };
}

const definitions: Definition[] = [
  {
    id: 'display_300x250',
    name: 'Medium Rectangle 300x250',
    description:
      'IAB medium rectangle: a 300x250 image (JPG, PNG, GIF or WebP, at most 150 KB, animation up to 15 s) with a clickthrough URL.',
    type: 'display',
    ...banner(300, 250),
  },
  {
    id: 'display_728x90',
    name: 'Leaderboard 728x90',
    description:
      'IAB leaderboard across the top of a desktop page: a 728x90 image (at most 150 KB) with a clickthrough URL.',
    type: 'display',
    ...banner(728, 90),
  },
  {
    id: 'display_320x50',
    name: 'Mobile Banner 320x50',
    description:
      'IAB mobile banner at the top or bottom of a phone screen: a 320x50 image (at most 150 KB) with a clickthrough URL.',
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
    id: 'display_970x250',
    name: 'Billboard 970x250',
    description:
      'IAB billboard, a wide unit at the top of a desktop page: a 970x250 image (at most 150 KB) with a clickthrough URL.',
    type: 'display',
    ...banner(970, 250),
  },
  {
    id: 'display_320x480',
    name: 'Mobile Interstitial 320x480',
    description:
      'IAB portrait interstitial covering a phone screen between pages or app screens: a 320x480 image (at most 150 KB) with a clickthrough URL.',
    type: 'display',
    ...banner(320, 480),
  },
  {
    id: 'display_responsive',
    name: 'Responsive Display',
    description:
      'A display ad the publisher assembles to fit any slot from 120 to 1200 pixels wide: a 1.91:1 landscape image, an optional square image and logo, a headline, a description, the business name, an optional call to action, and a clickthrough URL.',
    type: 'display',
    renders: [
      {
        role: 'primary',
        dimensions: {
          min_width: 120,
          max_width: 1200,
          min_height: 50,
          max_height: 1200,
          unit: 'px',
          responsive: { width: true, height: true },
        },
      },
    ],
    assets: [
      {
        item_type: 'individual',
        asset_id: 'landscape_image',
        asset_type: 'image',
        asset_role: 'hero_image',
        required: true,
        requirements: {
          min_width: 600,
          min_height: 314,
          aspect_ratio: '1.91:1',
          formats: ['jpg', 'png', 'webp'],
          max_file_size_kb: 5120,
          animation_allowed: false,
        },
      },
      {
        item_type: 'individual',
        asset_id: 'square_image',
        asset_type: 'image',
        asset_role: 'square_image',
        required: false,
        requirements: {
          min_width: 300,
          min_height: 300,
          aspect_ratio: '1:1',
          formats: ['jpg', 'png', 'webp'],
          max_file_size_kb: 5120,
          animation_allowed: false,
        },
      },
      {
        item_type: 'individual',
        asset_id: 'logo',
        asset_type: 'image',
        asset_role: 'logo',
        required: false,
        requirements: {
          min_width: 128,
          min_height: 128,
          aspect_ratio: '1:1',
          formats: ['png', 'jpg', 'webp'],
          max_file_size_kb: 1024,
        },
      },
      {
        item_type: 'individual',
        asset_id: 'headline',
        asset_type: 'text',
        asset_role: 'headline',
        required: true,
        requirements: { min_length: 1, max_length: 30 },
      },
      {
        item_type: 'individual',
        asset_id: 'description',
        asset_type: 'text',
        asset_role: 'body_text',
        required: true,
        requirements: { min_length: 1, max_length: 90 },
      },
      {
        item_type: 'individual',
        asset_id: 'business_name',
        asset_type: 'text',
        asset_role: 'advertiser_name',
        required: true,
        requirements: { min_length: 1, max_length: 25 },
      },
      {
        item_type: 'individual',
        asset_id: 'cta',
        asset_type: 'text',
        asset_role: 'call_to_action',
        required: false,
        requirements: { max_length: 15 },
      },
      clickthrough,
      impressionTracker,
    ],
    supported_macros: displayMacros,
  },
  {
    id: 'html5_300x250',
    name: 'HTML5 Medium Rectangle 300x250',
    description:
      'An HTML5 medium rectangle: a 300x250 HTML document (at most 200 KB initial load, SafeFrame-compatible), a 300x250 backup image (at most 50 KB) and a clickthrough URL.',
    type: 'display',
    ...html5(300, 250),
  },
  {
    id: 'html5_728x90',
    name: 'HTML5 Leaderboard 728x90',
    description:
      'An HTML5 leaderboard: a 728x90 HTML document (at most 200 KB initial load, SafeFrame-compatible), a 728x90 backup image (at most 50 KB) and a clickthrough URL.',
    type: 'display',
    ...html5(728, 90),
  },
  {
    id: 'html5_300x600',
    name: 'HTML5 Half Page 300x600',
    description:
      'An HTML5 half page: a 300x600 HTML document (at most 200 KB initial load, SafeFrame-compatible), a 300x600 backup image (at most 50 KB) and a clickthrough URL.',
    type: 'display',
    ...html5(300, 600),
  },
  {
    id: 'html5_320x50',
    name: 'HTML5 Mobile Banner 320x50',
    description:
      'An HTML5 mobile banner: a 320x50 HTML document (at most 200 KB initial load, SafeFrame-compatible), a 320x50 backup image (at most 50 KB) and a clickthrough URL.',
    type: 'display',
    ...html5(320, 50),
  },
  {
    id: 'native_in_feed',
    name: 'Native In-Feed',
    description:
      'A sponsored post in a content feed, laid out by the publisher from a headline, body text, a 1.91:1 image, the advertiser’s name and logo, and a call to action; it takes the feed’s width.',
    type: 'display',
    renders: [
      { role: 'primary', dimensions: { min_width: 300, max_width: 1200, responsive: { width: true, height: true } } },
    ],
    assets: [
      {
        item_type: 'individual',
        asset_id: 'headline',
        asset_type: 'text',
        asset_role: 'headline',
        required: true,
        requirements: { min_length: 1, max_length: 50, max_lines: 2 },
      },
      {
        item_type: 'individual',
        asset_id: 'body',
        asset_type: 'text',
        asset_role: 'body_text',
        required: true,
        requirements: { max_length: 140 },
      },
      {
        item_type: 'individual',
        asset_id: 'main_image',
        asset_type: 'image',
        asset_role: 'hero_image',
        required: true,
        requirements: {
          min_width: 1200,
          min_height: 627,
          aspect_ratio: '1.91:1',
          formats: ['jpg', 'png', 'webp'],
          max_file_size_kb: 500,
          animation_allowed: false,
        },
      },
      {
        item_type: 'individual',
        asset_id: 'sponsor_name',
        asset_type: 'text',
        asset_role: 'advertiser_name',
        required: true,
        requirements: { min_length: 1, max_length: 25 },
      },
      {
        item_type: 'individual',
        asset_id: 'logo',
        asset_type: 'image',
        asset_role: 'logo',
        required: false,
        requirements: {
          min_width: 100,
          min_height: 100,
          aspect_ratio: '1:1',
          formats: ['png', 'jpg', 'webp'],
          max_file_size_kb: 100,
        },
      },
      {
        item_type: 'individual',
        asset_id: 'cta',
        asset_type: 'text',
        asset_role: 'call_to_action',
        required: false,
        requirements: { max_length: 15 },
      },
      clickthrough,
      impressionTracker,
    ],
    supported_macros: nativeMacros,
  },
  {
    id: 'video_15s',
    name: 'Online Video 15s',
    description:
      'Skippable or non-skippable in-stream video of 15 seconds: a 16:9 MP4 or WebM file (at least 1280x720, with sound), shown in the player at its size.',
    type: 'video',
    renders: playerRender,
    assets: [onlineVideo(15), { ...clickthrough, required: false }, impressionTracker],
    supported_macros: videoMacros,
  },
  {
    id: 'video_30s',
    name: 'Online Video 30s',
    description:
      'In-stream video of 30 seconds: a 16:9 MP4 or WebM file (at least 1280x720, with sound), shown in the player at its size.',
    type: 'video',
    renders: playerRender,
    assets: [onlineVideo(30), { ...clickthrough, required: false }, impressionTracker],
    supported_macros: videoMacros,
  },
  {
    id: 'video_6s_bumper',
    name: 'Bumper Video 6s',
    description:
      'A non-skippable 6-second in-stream bumper: a 16:9 MP4 or WebM file (at least 1280x720, with sound), shown in the player at its size.',
    type: 'video',
    renders: playerRender,
    assets: [onlineVideo(6), { ...clickthrough, required: false }, impressionTracker],
    supported_macros: videoMacros,
  },
  {
    id: 'video_vast_15s',
    name: 'VAST Video 15s',
    description:
      'In-stream video of 15 seconds served by the buyer’s ad server: a VAST tag (URL or inline XML) whose linear creative lasts 15 seconds, with its own clickthrough and tracking.',
    type: 'video',
    renders: playerRender,
    assets: [vastTag(15), impressionTracker],
    supported_macros: videoMacros,
  },
  {
    id: 'video_vast_30s',
    name: 'VAST Video 30s',
    description:
      'In-stream video of 30 seconds served by the buyer’s ad server: a VAST tag (URL or inline XML) whose linear creative lasts 30 seconds, with its own clickthrough and tracking.',
    type: 'video',
    renders: playerRender,
    assets: [vastTag(30), impressionTracker],
    supported_macros: videoMacros,
  },
  {
    id: 'ctv_video_15s',
    name: 'CTV Video 15s',
    description:
      'Full-screen, non-skippable 15-second spot on connected TV: a 1920x1080 broadcast-quality MP4 (H.264 or H.265, at least 10 Mbps, loudness -24 LUFS). Not clickable.',
    type: 'video',
    renders: tvRender,
    assets: [ctvVideo(15), impressionTracker],
    supported_macros: ctvMacros,
  },
  {
    id: 'ctv_video_30s',
    name: 'CTV Video 30s',
    description:
      'Full-screen, non-skippable 30-second spot on connected TV: a 1920x1080 broadcast-quality MP4 (H.264 or H.265, at least 10 Mbps, loudness -24 LUFS). Not clickable.',
    type: 'video',
    renders: tvRender,
    assets: [ctvVideo(30), impressionTracker],
    supported_macros: ctvMacros,
  },
  {
    id: 'audio_15s',
    name: 'Audio 15s',
    description:
      'A 15-second audio spot for streaming radio and podcasts: MP3 or AAC (M4A), at least 128 kbps, mono or stereo, with an optional clickthrough for players with a screen.',
    type: 'audio',
    assets: [hostedAudio(15), { ...clickthrough, required: false }, impressionTracker],
    supported_macros: audioMacros,
  },
  {
    id: 'audio_30s',
    name: 'Audio 30s',
    description:
      'A 30-second audio spot for streaming radio and podcasts: MP3 or AAC (M4A), at least 128 kbps, mono or stereo, with an optional clickthrough for players with a screen.',
    type: 'audio',
    assets: [hostedAudio(30), { ...clickthrough, required: false }, impressionTracker],
    supported_macros: audioMacros,
  },
  {
    id: 'audio_daast_15s',
    name: 'DAAST Audio 15s',
    description:
      'A 15-second audio spot served by the buyer’s ad server: a DAAST 1.0 tag (URL or inline XML) whose ad lasts 15 seconds, with its own tracking and companion.',
    type: 'audio',
    assets: [daastTag(15), impressionTracker],
    supported_macros: audioMacros,
  },
  {
    id: 'audio_daast_30s',
    name: 'DAAST Audio 30s',
    description:
      'A 30-second audio spot served by the buyer’s ad server: a DAAST 1.0 tag (URL or inline XML) whose ad lasts 30 seconds, with its own tracking and companion.',
    type: 'audio',
    assets: [daastTag(30), impressionTracker],
    supported_macros: audioMacros,
  },
  {
    id: 'dooh_1920x1080',
    name: 'Digital Out-of-Home 1920x1080',
    description:
      'A landscape full-HD digital screen in a public venue: a static 1920x1080 image shown for a 10-second slot in the screen’s loop. Not clickable; the tracker fires on each play.',
    type: 'dooh',
    ...screen(1920, 1080),
  },
  {
    id: 'dooh_1080x1920',
    name: 'Digital Out-of-Home Portrait 1080x1920',
    description:
      'A portrait full-HD digital screen in a mall, station or elevator: a static 1080x1920 image shown for a 10-second slot in the screen’s loop. Not clickable; the tracker fires on each play.',
    type: 'dooh',
    ...screen(1080, 1920),
  },
];

// The few creative agent URLs a deployment names (one per base URL it has answered under).
const shared = new Map<string, readonly Format[]>();

/**
 * The standard formats at `creativeAgentUrl`, made once per URL and frozen: what the agents'
 * calls read (building them afresh, deep copies included, was most of a preview's cost).
 */
export function standardFormatsAt(creativeAgentUrl: string): readonly Format[] {
  let formats = shared.get(creativeAgentUrl);
  if (!formats) {
    if (shared.size >= 8) shared.clear();
    shared.set(creativeAgentUrl, (formats = deepFreeze(standardFormats(creativeAgentUrl))));
  }
  return formats;
}

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
