import { exactly, format, impressionTracker, required, type Definition } from './definition.ts';
import { doohMacros } from './macros.ts';

/** A digital screen in a public venue: a still image of exactly the screen's size, not clickable. */
const screen = (width: number, height: number, name: string, description: string) =>
  format(`dooh_${width}x${height}`, name, 'dooh', description, {
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
      required('screen_image', 'image', 'hero_image', {
        ...exactly(width, height),
        formats: ['jpg', 'png'],
        color_space: 'rgb',
        max_file_size_kb: 10_240,
        animation_allowed: false,
      }),
      { ...impressionTracker, asset_role: 'proof_of_play' },
    ],
    supported_macros: doohMacros,
  });

/** Digital out-of-home: landscape and portrait full-HD screens. */
export const doohFormats: Definition[] = [
  screen(
    1920,
    1080,
    'Digital Out-of-Home 1920x1080',
    'A landscape full-HD digital screen in a public venue: a static 1920x1080 image shown for a 10-second slot in the screen’s loop. Not clickable; the tracker fires on each play.',
  ),
  screen(
    1080,
    1920,
    'Digital Out-of-Home Portrait 1080x1920',
    'A portrait full-HD digital screen in a mall, station or elevator: a static 1080x1920 image shown for a 10-second slot in the screen’s loop. Not clickable; the tracker fires on each play.',
  ),
];
