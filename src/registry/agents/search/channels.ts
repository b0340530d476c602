/**
 * The channels (enums/channels.json) a property type is sold in, for agents whose own
 * capabilities do not say: a website or app is display inventory, a CTV app CTV, and so on.
 * Video on a website is not assumed (not every site has a player); the agent's
 * `media_buy.portfolio.primary_channels` adds what it declares.
 */
const byPropertyType: Record<string, readonly string[]> = {
  website: ['display'],
  mobile_app: ['display'],
  desktop_app: ['display'],
  ctv_app: ['ctv'],
  dooh: ['dooh'],
  podcast: ['podcast'],
  radio: ['radio'],
  streaming_audio: ['streaming_audio'],
  ai_assistant: ['sponsored_intelligence'],
};

export function channelsOf(propertyTypes: Iterable<string>): Set<string> {
  const channels = new Set<string>();
  for (const type of propertyTypes) for (const channel of byPropertyType[type] ?? []) channels.add(channel);
  return channels;
}
