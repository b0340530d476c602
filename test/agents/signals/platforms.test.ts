import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inCatalogTerms, platformNamer } from '../../../src/agents/signals/platforms.ts';

describe('platform names as buyers write them', () => {
  const platformOf = platformNamer(new Set(['the-trade-desk', 'dv360', 'google-ad-manager', 'Acme_CTV']));

  it('finds the catalog’s platform as written, in any case or spacing, and by a common alias', () => {
    for (const [named, platform] of [
      ['the-trade-desk', 'the-trade-desk'],
      ['The Trade Desk', 'the-trade-desk'],
      ['TTD', 'the-trade-desk'],
      ['Display & Video 360', 'dv360'],
      ['display_video_360', 'dv360'],
      ['GAM', 'google-ad-manager'],
      ['dfp', 'google-ad-manager'],
      ['acme ctv', 'Acme_CTV'],
    ] as const) {
      assert.equal(platformOf(named), platform, named);
    }
  });

  it('places no alias of a platform the catalog does not carry, and no platform it never heard of', () => {
    assert.equal(platformOf('amazon'), undefined, 'amazon-dsp is not in this catalog');
    assert.equal(platformOf('criteo'), undefined);
  });

  it('rewrites platform targets only, keeping an unplaced platform as the buyer wrote it', () => {
    const agent = { type: 'agent', agent_url: 'https://sales.example/mcp' } as const;
    assert.deepEqual(
      inCatalogTerms(
        [{ type: 'platform', platform: 'ttd', account: 'seat-1' }, agent, { type: 'platform', platform: 'Criteo' }],
        platformOf,
      ),
      [
        { type: 'platform', platform: 'the-trade-desk', account: 'seat-1' },
        agent,
        { type: 'platform', platform: 'Criteo' },
      ],
    );
  });
});
