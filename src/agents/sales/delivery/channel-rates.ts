/**
 * How the simulated audience of a channel answers an impression. Fixed numbers, not draws: the same
 * buy reports the same delivery every time it is asked, on every instance. They are plausible
 * industry orders of magnitude, not measurements.
 */
export interface ChannelRates {
  /** Clicks per impression. */
  readonly ctr: number;
  /** Conversions per click (last touch, within the attribution window answered). */
  readonly conversionRate: number;
  /** Viewable impressions per measured impression (MRC); 0 where viewability is not measured. */
  readonly viewability: number;
  /** Views counted toward a billable view (video: platform view event; audio: stream start) per impression. */
  readonly viewRate: number;
  /** Completed video or audio plays per impression. */
  readonly completionRate: number;
  /** The CPM an impression is worth where the price is not per unit delivered (flat_rate, time) or is unknown. */
  readonly notionalCpm: number;
}

const display: ChannelRates = {
  ctr: 0.001,
  conversionRate: 0.02,
  viewability: 0.7,
  viewRate: 0,
  completionRate: 0,
  notionalCpm: 10,
};
const onlineVideo: ChannelRates = {
  ctr: 0.004,
  conversionRate: 0.01,
  viewability: 0.75,
  viewRate: 0.8,
  completionRate: 0.7,
  notionalCpm: 25,
};
const television: ChannelRates = {
  ctr: 0,
  conversionRate: 0,
  viewability: 0.95,
  viewRate: 0.97,
  completionRate: 0.95,
  notionalCpm: 35,
};
const audio: ChannelRates = {
  ctr: 0,
  conversionRate: 0,
  viewability: 0,
  viewRate: 0.95,
  completionRate: 0.9,
  notionalCpm: 15,
};
const social: ChannelRates = {
  ctr: 0.009,
  conversionRate: 0.015,
  viewability: 0.65,
  viewRate: 0,
  completionRate: 0,
  notionalCpm: 8,
};
const search: ChannelRates = {
  ctr: 0.03,
  conversionRate: 0.04,
  viewability: 0,
  viewRate: 0,
  completionRate: 0,
  notionalCpm: 20,
};
const outOfHome: ChannelRates = {
  ctr: 0,
  conversionRate: 0,
  viewability: 0,
  viewRate: 0,
  completionRate: 0,
  notionalCpm: 6,
};

/** By enums/channels.json; a channel not named here answers as display. */
const byChannel: Readonly<Record<string, ChannelRates>> = {
  display,
  olv: onlineVideo,
  ctv: television,
  linear_tv: { ...television, viewability: 0 },
  streaming_audio: audio,
  podcast: audio,
  radio: audio,
  social,
  search,
  retail_media: search,
  dooh: outOfHome,
  ooh: outOfHome,
};

/** The rates of a product's first channel (its primary one), display's when it names none. */
export function channelRates(channels: readonly string[] | undefined): ChannelRates {
  return byChannel[channels?.[0] ?? 'display'] ?? display;
}
