import { format, impressionTracker, lasting, optionalClickthrough, required, type Definition } from './definition.ts';
import { audioMacros } from './macros.ts';

/** An audio file for streaming radio and podcasts, with a clickthrough for players that have a screen. */
const hostedAudio = (seconds: number) =>
  format(
    `audio_${seconds}s`,
    `Audio ${seconds}s`,
    'audio',
    `A ${seconds}-second audio spot for streaming radio and podcasts: MP3 or AAC (M4A), at least 128 kbps, mono or stereo, with an optional clickthrough for players with a screen.`,
    {
      assets: [
        required('audio_file', 'audio', 'hero_audio', {
          ...lasting(seconds),
          formats: ['mp3', 'aac'],
          min_bitrate_kbps: 128,
          sample_rates: [44_100, 48_000],
          channels: ['mono', 'stereo'],
          max_file_size_kb: 10_240,
        }),
        optionalClickthrough,
        impressionTracker,
      ],
      supported_macros: audioMacros,
    },
  );

/** A DAAST tag from the buyer's ad server, whose own tracking and companion apply. */
const daastAudio = (seconds: number) =>
  format(
    `audio_daast_${seconds}s`,
    `DAAST Audio ${seconds}s`,
    'audio',
    `A ${seconds}-second audio spot served by the buyer’s ad server: a DAAST 1.0 tag (URL or inline XML) whose ad lasts ${seconds} seconds, with its own tracking and companion.`,
    {
      assets: [
        required('daast_tag', 'daast', 'hero_audio', { daast_version: '1.0', ...lasting(seconds) }),
        impressionTracker,
      ],
      supported_macros: audioMacros,
    },
  );

/** Audio: hosted spots and DAAST tags, in the order the catalog lists them. */
export const audioFormats: Definition[] = [hostedAudio(15), hostedAudio(30), daastAudio(15), daastAudio(30)];
