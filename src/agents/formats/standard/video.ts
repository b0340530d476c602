import type { Asset, Render } from '../format.ts';
import { format, impressionTracker, lasting, optionalClickthrough, required, type Definition } from './definition.ts';
import { ctvMacros, videoMacros } from './macros.ts';

/** In-stream video plays in the publisher's player, at whatever size it has: 16:9, scaled to fit. */
const playerRender: Render[] = [
  {
    role: 'primary',
    dimensions: { min_width: 640, min_height: 360, aspect_ratio: '16:9', responsive: { width: true, height: true } },
  },
];

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

const onlineVideoFile = (seconds: number): Asset =>
  required('video_file', 'video', 'hero_video', {
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
  });

/** A video file the player plays in-stream, clickable. */
const onlineVideo = (id: string, name: string, seconds: number, description: string) =>
  format(id, name, 'video', description, {
    renders: playerRender,
    assets: [onlineVideoFile(seconds), optionalClickthrough, impressionTracker],
    supported_macros: videoMacros,
  });

/**
 * A VAST tag from the buyer's ad server, by URL or inline; the player asks it for the media, so the
 * tag's own clickthrough and trackers apply. Its duration, when the manifest states one, is the
 * linear creative's.
 */
const vastVideo = (seconds: number) =>
  format(
    `video_vast_${seconds}s`,
    `VAST Video ${seconds}s`,
    'video',
    `In-stream video of ${seconds} seconds served by the buyer’s ad server: a VAST tag (URL or inline XML) whose linear creative lasts ${seconds} seconds, with its own clickthrough and tracking.`,
    {
      renders: playerRender,
      assets: [required('vast_tag', 'vast', 'hero_video', { ...lasting(seconds) }), impressionTracker],
      supported_macros: videoMacros,
    },
  );

const ctvVideo = (seconds: number) =>
  format(
    `ctv_video_${seconds}s`,
    `CTV Video ${seconds}s`,
    'video',
    `Full-screen, non-skippable ${seconds}-second spot on connected TV: a 1920x1080 broadcast-quality MP4 (H.264 or H.265, at least 10 Mbps, loudness -24 LUFS). Not clickable.`,
    {
      renders: tvRender,
      assets: [
        required('video_file', 'video', 'hero_video', {
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
        }),
        impressionTracker,
      ],
      supported_macros: ctvMacros,
    },
  );

/** Video: in-stream files, VAST tags and connected-TV spots, in the order the catalog lists them. */
export const videoFormats: Definition[] = [
  onlineVideo(
    'video_15s',
    'Online Video 15s',
    15,
    'Skippable or non-skippable in-stream video of 15 seconds: a 16:9 MP4 or WebM file (at least 1280x720, with sound), shown in the player at its size.',
  ),
  onlineVideo(
    'video_30s',
    'Online Video 30s',
    30,
    'In-stream video of 30 seconds: a 16:9 MP4 or WebM file (at least 1280x720, with sound), shown in the player at its size.',
  ),
  onlineVideo(
    'video_6s_bumper',
    'Bumper Video 6s',
    6,
    'A non-skippable 6-second in-stream bumper: a 16:9 MP4 or WebM file (at least 1280x720, with sound), shown in the player at its size.',
  ),
  vastVideo(15),
  vastVideo(30),
  ctvVideo(15),
  ctvVideo(30),
];
