import { ConfigError, optional, settings, type Loaded } from '../settings.ts';

/** `ap mirror`: the registry it follows. */
export const mirrorSettings = settings({
  /** The upstream registry's base URL. */
  upstreamUrl: {
    env: 'AP_MIRROR_FROM',
    default: '',
    meaning: '`ap mirror`: the base URL of the registry to follow (--from)',
    parse: (value, name) => {
      if (value === '') throw new ConfigError(`${name} (--from) is required: the base URL of the registry to follow`);
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new ConfigError(`${name} (--from) must be an http(s) URL, not "${value}"`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new ConfigError(`${name} (--from) must be an http(s) URL, not "${value}"`);
      return url.href;
    },
  },
  /** The credential the feed and the snapshot need (an organization API key). */
  upstreamToken: {
    env: 'AP_MIRROR_TOKEN',
    default: '',
    meaning: '`ap mirror`: the upstream credential (an API key) for its feed and snapshot (--token)',
    parse: optional,
  },
});

export type MirrorSettings = Loaded<typeof mirrorSettings>;
