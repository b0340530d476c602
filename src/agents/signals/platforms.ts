import { AgentError } from '../../protocol/errors.ts';
import type { Destination } from './activations/destination.ts';

/**
 * Other names buyers' tools give the platforms a catalog commonly names (core/destination.json's
 * own examples are "the-trade-desk" and "amazon-dsp"): a target naming one of these means the
 * catalog's platform, so "ttd" and "The Trade Desk" are not refused as platforms never heard of.
 */
const aliases: Readonly<Record<string, string>> = {
  ttd: 'the-trade-desk',
  'trade-desk': 'the-trade-desk',
  tradedesk: 'the-trade-desk',
  thetradedesk: 'the-trade-desk',
  'dv-360': 'dv360',
  'google-dv360': 'dv360',
  'display-video-360': 'dv360',
  'display-and-video-360': 'dv360',
  'google-display-video-360': 'dv360',
  amazon: 'amazon-dsp',
  'amazon-ads': 'amazon-dsp',
  'amazon-advertising': 'amazon-dsp',
  yahoo: 'yahoo-dsp',
  'microsoft-invest': 'xandr',
  'microsoft-xandr': 'xandr',
  appnexus: 'xandr',
  gam: 'google-ad-manager',
  dfp: 'google-ad-manager',
  'google-admanager': 'google-ad-manager',
  'ad-manager': 'google-ad-manager',
  rubicon: 'magnite',
  'rubicon-project': 'magnite',
  ix: 'index-exchange',
  indexexchange: 'index-exchange',
};

/** A platform name in one spelling: lower case, words joined by single hyphens ("The Trade Desk" → "the-trade-desk", "Display & Video 360" → "display-video-360"). */
function spelled(name: string): string {
  return name
    .toLowerCase()
    .replaceAll(/[^\p{L}\p{N}]+/gu, '-')
    .replaceAll(/^-|-$/g, '');
}

/** Finds the catalog's identifier for a platform as a buyer names it: as written, in any case or spacing, or by a common alias. */
export function platformNamer(platforms: ReadonlySet<string>): (named: string) => string | undefined {
  const byName = new Map<string, string>();
  for (const platform of platforms) byName.set(spelled(platform), platform);
  for (const [alias, platform] of Object.entries(aliases))
    if (platforms.has(platform) && !byName.has(alias)) byName.set(alias, platform);
  return (named) => (platforms.has(named) ? named : byName.get(spelled(named)));
}

/** The targets with each platform named as the catalog names it; a platform it cannot place stays as the buyer wrote it. */
export function inCatalogTerms(
  targets: readonly Destination[],
  platformOf: (named: string) => string | undefined,
): Destination[] {
  return targets.map((target) => {
    if (target.type !== 'platform') return target;
    const platform = platformOf(target.platform);
    return platform === undefined || platform === target.platform ? target : { ...target, platform };
  });
}

/** The refusal of a target on a platform the agent does not deliver to: correctable, by naming one it does. */
export function unservedPlatform(platform: string, field: string, served: ReadonlySet<string>): AgentError {
  return new AgentError(
    'DEPLOYMENT_UNAUTHORIZED',
    `This agent does not deliver signals to ${JSON.stringify(platform)}.`,
    {
      field,
      suggestion: `Name a platform it serves (get_ap_capabilities signals.platforms): ${[...served].sort().join(', ')}; or an agent target.`,
      recovery: 'correctable',
    },
  );
}
