import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import type { Buyer } from '../media-buys/harness.ts';

export { buyer, buyerPool, createArgs, inDays, startSales, type Buyer } from '../media-buys/harness.ts';

const published: Record<string, string> = {
  sync_creatives: '/schemas/3.0.6/creative/sync-creatives-response.json',
  list_creatives: '/schemas/3.0.6/creative/list-creatives-response.json',
};

/** A creative-library call that must succeed, its answer checked against the published schema. */
export async function library(
  b: Buyer,
  name: 'sync_creatives' | 'list_creatives',
  args: Record<string, unknown>,
): Promise<Json> {
  const payload = await b.call(name, args);
  assert.deepEqual(validateSchema(published[name]!, payload).errors, [], `${name} answers its published schema`);
  return payload;
}

export const sync = (b: Buyer, creatives: Json[], more: Record<string, unknown> = {}) =>
  library(b, 'sync_creatives', { idempotency_key: randomUUID(), account: b.account, creatives, ...more });

export const list = (b: Buyer, args: Record<string, unknown> = {}) => library(b, 'list_creatives', args);

/** A valid 300x250 banner of this deployment's standard format. */
export function banner(server: TestServer, creativeId: string, more: Record<string, unknown> = {}): Json {
  return {
    creative_id: creativeId,
    name: `Banner ${creativeId}`,
    format_id: { agent_url: `${server.url}/creative/mcp`, id: 'display_300x250' },
    assets: {
      banner_image: { asset_type: 'image', url: `https://cdn.example.com/${creativeId}.png`, width: 300, height: 250 },
      click_url: { asset_type: 'url', url: 'https://brand.example/landing' },
    },
    ...more,
  };
}

/** A valid 15-second video: a format the display products do not take. */
export function video(server: TestServer, creativeId: string): Json {
  return {
    creative_id: creativeId,
    name: `Video ${creativeId}`,
    format_id: { agent_url: `${server.url}/creative/mcp`, id: 'video_15s' },
    assets: {
      video_file: {
        asset_type: 'video',
        url: `https://cdn.example.com/${creativeId}.mp4`,
        width: 1920,
        height: 1080,
        duration_ms: 15000,
      },
    },
  };
}
