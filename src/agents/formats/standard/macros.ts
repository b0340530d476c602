/** The universal macros (enums/universal-macro.json) each family fills, by what a placement knows when it serves the ad. */

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

export const displayMacros = macros(delivery, ['CLICK_URL'], privacy, device, region, site, slot);
export const nativeMacros = macros(delivery, ['CLICK_URL'], privacy, device, region, site);
export const videoMacros = macros(delivery, ['CLICK_URL'], privacy, device, region, site, content, player);
export const ctvMacros = macros(delivery, privacy, device, tvDevice, region, content, player);
export const audioMacros = macros(delivery, ['CLICK_URL'], privacy, device, region, listening);
export const doohMacros = macros(delivery, ['DEVICE_TYPE'], region, venue, slot);
