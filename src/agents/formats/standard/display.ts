import type { Render } from '../format.ts';
import { clickthrough, exactly, format, impressionTracker, optional, required, type Definition } from './definition.ts';
import { displayMacros, nativeMacros } from './macros.ts';

const fixedRender = (width: number, height: number): Render[] => [
  { role: 'primary', dimensions: { width, height, unit: 'px', responsive: { width: false, height: false } } },
];

/** The IAB fixed-size banner: one static or animated image of exactly its size. */
function banner(width: number, height: number, label: string, description: string): Definition {
  return format(`display_${width}x${height}`, `${label} ${width}x${height}`, 'display', description, {
    renders: fixedRender(width, height),
    assets: [
      required('banner_image', 'image', 'hero_image', {
        ...exactly(width, height),
        formats: ['jpg', 'png', 'gif', 'webp'],
        max_file_size_kb: 150,
        animation_allowed: true,
        max_animation_duration_ms: 15_000,
      }),
      clickthrough,
      impressionTracker,
    ],
    supported_macros: displayMacros,
  });
}

/**
 * An HTML5 banner of a fixed size: the HTML document runs in a SafeFrame and may load what it
 * needs (IAB's 200 KB initial load); the backup image shows where scripts cannot run.
 */
function html5(width: number, height: number, label: string): Definition {
  const size = `${width}x${height}`;
  return format(
    `html5_${size}`,
    `HTML5 ${label} ${size}`,
    'display',
    `An HTML5 ${label.toLowerCase()}: a ${size} HTML document (at most 200 KB initial load, SafeFrame-compatible), a ${size} backup image (at most 50 KB) and a clickthrough URL.`,
    {
      renders: fixedRender(width, height),
      assets: [
        required('html_creative', 'html', 'hero_html', {
          max_file_size_kb: 200,
          sandbox: 'safeframe',
          external_resources_allowed: true,
        }),
        required('backup_image', 'image', 'backup_image', {
          ...exactly(width, height),
          formats: ['jpg', 'png', 'gif'],
          max_file_size_kb: 50,
          animation_allowed: false,
        }),
        clickthrough,
        impressionTracker,
      ],
      supported_macros: displayMacros,
    },
  );
}

/** A still picture for the publisher to lay out, at least this size. */
const still = (min_width: number, min_height: number, aspect_ratio: string, max_file_size_kb: number) => ({
  min_width,
  min_height,
  aspect_ratio,
  formats: ['jpg', 'png', 'webp'],
  max_file_size_kb,
  animation_allowed: false,
});

const logo = (side: number, max_file_size_kb: number) =>
  optional('logo', 'image', 'logo', {
    min_width: side,
    min_height: side,
    aspect_ratio: '1:1',
    formats: ['png', 'jpg', 'webp'],
    max_file_size_kb,
  });

const advertiserName = (asset_id: string) =>
  required(asset_id, 'text', 'advertiser_name', { min_length: 1, max_length: 25 });

const callToAction = optional('cta', 'text', 'call_to_action', { max_length: 15 });

const responsiveDisplay = format(
  'display_responsive',
  'Responsive Display',
  'display',
  'A display ad the publisher assembles to fit any slot from 120 to 1200 pixels wide: a 1.91:1 landscape image, an optional square image and logo, a headline, a description, the business name, an optional call to action, and a clickthrough URL.',
  {
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
      required('landscape_image', 'image', 'hero_image', still(600, 314, '1.91:1', 5120)),
      optional('square_image', 'image', 'square_image', still(300, 300, '1:1', 5120)),
      logo(128, 1024),
      required('headline', 'text', 'headline', { min_length: 1, max_length: 30 }),
      required('description', 'text', 'body_text', { min_length: 1, max_length: 90 }),
      advertiserName('business_name'),
      callToAction,
      clickthrough,
      impressionTracker,
    ],
    supported_macros: displayMacros,
  },
);

const nativeInFeed = format(
  'native_in_feed',
  'Native In-Feed',
  'display',
  'A sponsored post in a content feed, laid out by the publisher from a headline, body text, a 1.91:1 image, the advertiser’s name and logo, and a call to action; it takes the feed’s width.',
  {
    renders: [
      { role: 'primary', dimensions: { min_width: 300, max_width: 1200, responsive: { width: true, height: true } } },
    ],
    assets: [
      required('headline', 'text', 'headline', { min_length: 1, max_length: 50, max_lines: 2 }),
      required('body', 'text', 'body_text', { max_length: 140 }),
      required('main_image', 'image', 'hero_image', still(1200, 627, '1.91:1', 500)),
      advertiserName('sponsor_name'),
      logo(100, 100),
      callToAction,
      clickthrough,
      impressionTracker,
    ],
    supported_macros: nativeMacros,
  },
);

/** Display: IAB banners, a responsive ad, HTML5 banners and a native post, in the order the catalog lists them. */
export const displayFormats: Definition[] = [
  banner(
    300,
    250,
    'Medium Rectangle',
    'IAB medium rectangle: a 300x250 image (JPG, PNG, GIF or WebP, at most 150 KB, animation up to 15 s) with a clickthrough URL.',
  ),
  banner(
    728,
    90,
    'Leaderboard',
    'IAB leaderboard across the top of a desktop page: a 728x90 image (at most 150 KB) with a clickthrough URL.',
  ),
  banner(
    320,
    50,
    'Mobile Banner',
    'IAB mobile banner at the top or bottom of a phone screen: a 320x50 image (at most 150 KB) with a clickthrough URL.',
  ),
  banner(
    160,
    600,
    'Wide Skyscraper',
    'IAB wide skyscraper in a page sidebar: a 160x600 image (at most 150 KB) with a clickthrough URL.',
  ),
  banner(
    300,
    600,
    'Half Page',
    'IAB half page, a large sidebar unit: a 300x600 image (at most 150 KB) with a clickthrough URL.',
  ),
  banner(
    970,
    250,
    'Billboard',
    'IAB billboard, a wide unit at the top of a desktop page: a 970x250 image (at most 150 KB) with a clickthrough URL.',
  ),
  banner(
    320,
    480,
    'Mobile Interstitial',
    'IAB portrait interstitial covering a phone screen between pages or app screens: a 320x480 image (at most 150 KB) with a clickthrough URL.',
  ),
  responsiveDisplay,
  html5(300, 250, 'Medium Rectangle'),
  html5(728, 90, 'Leaderboard'),
  html5(300, 600, 'Half Page'),
  html5(320, 50, 'Mobile Banner'),
  nativeInFeed,
];
