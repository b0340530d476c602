import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publicTestCredential } from '../../../src/config.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { schemasDir, validateSchema } from '../../../src/protocol/schemas.ts';
import { upsertAuthoritative } from '../../../src/registry/brands/sql.ts';
import { mcpClient } from '../../support/agents.ts';
import { engines } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { pixel, solidPng } from './render/fixtures.ts';

const BUILD = '/schemas/3.0.6/media-buy/build-creative-response.json';

/** The examples a published request schema gives, as buyers' tools copy them. */
const examplesOf = (path: string) =>
  (
    JSON.parse(readFileSync(join(schemasDir, '3.0.6', path), 'utf8')) as {
      examples?: Array<{ description: string; data: Json }>;
    }
  ).examples ?? [];
const primary = '#1d4e89';

/**
 * The creative agents of the test deployment as a buyer's tools call them (issue 33, points 6, 7
 * and 10): build_creative from a brief alone on the builder, drawn as the registry knows the
 * referenced brand; template building on the creative agent (from a manifest, or a creative of
 * its library); `account` accepted wherever the published request has it; and format ids naming
 * the agent as `localhost` when it introduced itself as `127.0.0.1`.
 */
for (const engine of engines) {
  describe(`build_creative as buyers send it (${engine.name})`, () => {
    let server: TestServer;
    let builder: Client;
    let creative: Client;
    let images: http.Server;
    let imageHost = '';
    const account = { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example' };
    // What the README writes: the server introduces itself as 127.0.0.1.
    const localhostFormat = (id: string) => ({
      agent_url: `${server.url.replace('127.0.0.1', 'localhost')}/creative/mcp`,
      id,
    });

    const call = async (client: Client, name: string, args: Json): Promise<{ payload: Json; isError: boolean }> => {
      const result = (await client.callTool({ name, arguments: args })) as Json;
      return { payload: JSON.parse(result.content[0].text as string) as Json, isError: result.isError === true };
    };
    const built = async (client: Client, args: Json): Promise<Json> => {
      const { payload, isError } = await call(client, 'build_creative', args);
      assert.equal(isError, false, JSON.stringify(payload));
      assert.deepEqual(validateSchema(BUILD, payload).errors, [], 'the published response');
      return payload;
    };
    const png = async (url: string) => {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
      return new Uint8Array(await res.arrayBuffer());
    };

    before(async () => {
      const logo = solidPng(120, 60, '#00ff00');
      images = http.createServer((req, res) =>
        req.url === '/acme-logo.png'
          ? res.writeHead(200, { 'content-type': 'image/png' }).end(logo)
          : res.writeHead(404).end(),
      );
      await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
      imageHost = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
      const fetcher = new SafeFetch({ allow: parseAllowList(new URL(imageHost).host) });
      server = await startTestServer(engine, { env: { AGENTS: 'true' }, deps: { fetcher } });
      await upsertAuthoritative(server.db, {
        id: randomUUID(),
        domain: 'acmeoutdoor.example',
        brand_name: 'Acme Outdoor',
        brand_key: null,
        keller_type: 'master',
        house_domain: null,
        manifest: {
          name: 'Acme Outdoor',
          tagline: 'Gear for every trail.',
          colors: [
            { hex: primary, type: 'primary' },
            { hex: '#f5b700', type: 'accent' },
          ],
          logos: [{ url: `${imageHost}/acme-logo.png` }],
        },
        aliases: [],
      });
      const headers = { authorization: `Bearer ${publicTestCredential}` };
      builder = await mcpClient(server.url, '/creative-builder', headers);
      creative = await mcpClient(server.url, '/creative', headers);
    });
    after(async () => {
      await builder?.close();
      await creative?.close();
      await server?.close();
      images?.close();
    });

    it('generates from a brief alone, for a brand the registry knows, with a format id naming the agent as localhost', async () => {
      const { creative_manifest: manifest } = await built(builder, {
        idempotency_key: randomUUID(),
        message: 'Create a banner promoting our winter sale with a warm, inviting feel',
        target_format_id: localhostFormat('display_300x250'),
        brand: { domain: 'acmeoutdoor.example' },
        account,
      });
      assert.equal(manifest.format_id.id, 'display_300x250');
      assert.deepEqual(manifest.assets.click_url, {
        asset_type: 'url',
        url: 'https://acmeoutdoor.example/',
        url_type: 'clickthrough',
      });
      const banner = await png(manifest.assets.banner_image.url);
      assert.deepEqual(
        pixel(banner, 2, 2).slice(0, 3),
        [0x1d, 0x4e, 0x89],
        'in the brand’s primary colour, as the registry knows it',
      );
      const green = [...Array(60).keys()].some(
        (x) =>
          pixel(banner, 90 + x, 40)
            .slice(0, 3)
            .join() === '0,255,0',
      );
      assert.ok(green, 'with the brand’s logo from the registry');
    });

    it('writes a native creative’s words from the brief and the brand', async () => {
      const { creative_manifest: manifest } = await built(builder, {
        idempotency_key: randomUUID(),
        message: 'Create a native ad promoting our winter sale',
        target_format_id: localhostFormat('native_in_feed'),
        brand: { domain: 'acmeoutdoor.example' },
      });
      const texts = Object.fromEntries(
        Object.entries(manifest.assets as Record<string, Json>)
          .filter(([, a]) => a.asset_type === 'text')
          .map(([k, a]) => [k, a.content]),
      );
      assert.ok(Object.values(texts).includes('Winter sale'), JSON.stringify(texts));
      assert.ok(Object.values(texts).includes('Gear for every trail.'), JSON.stringify(texts));
    });

    it('generates for a brand the registry does not know, from its domain, and refuses a brief with nothing to promote', async () => {
      const { creative_manifest: manifest } = await built(builder, {
        idempotency_key: randomUUID(),
        message: 'A banner for the spring collection',
        target_format_id: localhostFormat('display_728x90'),
        brand: { domain: 'unknown-brand.example' },
      });
      assert.equal(manifest.assets.click_url.url, 'https://unknown-brand.example/');
      const refused = await call(builder, 'build_creative', {
        idempotency_key: randomUUID(),
        message: 'Make it pop',
        target_format_id: localhostFormat('display_300x250'),
      });
      assert.equal(refused.isError, true);
      assert.equal(
        refused.payload.errors?.[0]?.code ?? refused.payload.code,
        'VALIDATION_ERROR',
        JSON.stringify(refused.payload),
      );
    });

    it('builds from a format’s template and a manifest on the creative agent, and points a brief alone to the builder', async () => {
      const { creative_manifest: manifest } = await built(creative, {
        idempotency_key: randomUUID(),
        target_format_id: localhostFormat('display_728x90'),
        creative_manifest: {
          format_id: localhostFormat('display_300x250'),
          assets: {
            promoted_offerings: {
              brand_manifest: { name: 'Acme Outdoor', url: 'https://acmeoutdoor.example/', colors: { primary } },
              inline_offerings: [
                {
                  name: 'Summit Tent',
                  description: 'Two people, one kilo.',
                  landing_url: 'https://acmeoutdoor.example/tent',
                },
              ],
            },
          },
        },
        account,
      });
      assert.equal(manifest.format_id.id, 'display_728x90');
      assert.equal(manifest.assets.click_url.url, 'https://acmeoutdoor.example/tent');
      assert.equal((await fetch(manifest.assets.banner_image.url)).status, 200, 'served by the creative agent');
      const brief = await call(creative, 'build_creative', {
        idempotency_key: randomUUID(),
        message: 'A banner promoting our winter sale',
        target_format_id: localhostFormat('display_300x250'),
      });
      assert.equal(brief.isError, true);
      assert.match(JSON.stringify(brief.payload), /UNSUPPORTED_FEATURE/);
      assert.match(JSON.stringify(brief.payload), /creative-builder\/mcp/);
    });

    it('builds a creative of the caller’s library by creative_id, with the library’s account', async () => {
      const banner = { asset_type: 'image', url: `${imageHost}/acme-logo.png`, width: 300, height: 250 };
      const synced = await call(creative, 'sync_creatives', {
        idempotency_key: randomUUID(),
        account,
        creatives: [
          {
            creative_id: 'acme-tent-300',
            name: 'Tent',
            format_id: localhostFormat('display_300x250'),
            assets: {
              banner_image: banner,
              click_url: { asset_type: 'url', url: 'https://acmeoutdoor.example/tent', url_type: 'clickthrough' },
            },
          },
        ],
      });
      assert.equal(synced.isError, false, JSON.stringify(synced.payload));
      const { creative_manifest: manifest } = await built(creative, {
        idempotency_key: randomUUID(),
        creative_id: 'acme-tent-300',
        account,
        target_format_id: localhostFormat('display_320x50'),
      });
      assert.equal(manifest.format_id.id, 'display_320x50');
      assert.equal(manifest.assets.click_url.url, 'https://acmeoutdoor.example/tent');
      const relaid = await png(manifest.assets.banner_image.url);
      const green = [...Array(160).keys()].some(
        (i) =>
          pixel(relaid, (i * 2) % 320, 5 + Math.floor(i / 160) * 20)
            .slice(0, 3)
            .join() === '0,255,0' ||
          pixel(relaid, i * 2, 25)
            .slice(0, 3)
            .join() === '0,255,0',
      );
      assert.ok(green, 'the library creative’s picture, fetched before the build, is re-laid in the new size');
      const badAccount = await call(creative, 'build_creative', {
        idempotency_key: randomUUID(),
        creative_id: 'acme-tent-300',
        account: { operator: 'pinnacle-agency.example' },
        target_format_id: localhostFormat('display_320x50'),
      });
      assert.equal(badAccount.isError, true);
      assert.match(JSON.stringify(badAccount.payload), /INVALID_REQUEST|VALIDATION_ERROR/);
      const missing = await call(creative, 'build_creative', {
        idempotency_key: randomUUID(),
        creative_id: 'no-such-creative',
        account,
        target_format_id: localhostFormat('display_320x50'),
      });
      assert.equal(missing.isError, true);
      assert.match(JSON.stringify(missing.payload), /CREATIVE_NOT_FOUND/);
    });

    it('accepts account on every creative task whose published request has it, and previews formats named as localhost', async () => {
      for (const client of [creative, builder]) {
        const formats = await call(client, 'list_creative_formats', { account, type: 'display' });
        assert.equal(formats.isError, false, JSON.stringify(formats.payload));
        assert.deepEqual(
          validateSchema('/schemas/3.0.6/creative/list-creative-formats-response.json', formats.payload).errors,
          [],
        );
        assert.ok((formats.payload.formats as Json[]).length > 0);
      }
      const listed = await call(creative, 'list_creatives', { account });
      assert.equal(listed.isError, false, JSON.stringify(listed.payload));
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/creative/list-creatives-response.json', listed.payload).errors,
        [],
      );
      const preview = await call(creative, 'preview_creative', {
        request_type: 'single',
        format_id: localhostFormat('display_300x250'),
        creative_manifest: {
          format_id: localhostFormat('display_300x250'),
          assets: {
            banner_image: { asset_type: 'image', url: `${imageHost}/acme-logo.png`, width: 300, height: 250 },
            click_url: { asset_type: 'url', url: 'https://acmeoutdoor.example/', url_type: 'clickthrough' },
          },
        },
      });
      assert.equal(preview.isError, false, JSON.stringify(preview.payload));
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/creative/preview-creative-response.json', preview.payload).errors,
        [],
      );
    });

    it('takes the published request schemas’ own examples: list_creatives answers them, sync_creatives judges their creatives, not their shape', async () => {
      const lists = examplesOf('creative/list-creatives-request.json');
      assert.ok(lists.length > 0);
      for (const { description, data } of lists) {
        const answer = await call(creative, 'list_creatives', data);
        assert.equal(answer.isError, false, `${description}: ${JSON.stringify(answer.payload)}`);
        assert.deepEqual(
          validateSchema('/schemas/3.0.6/creative/list-creatives-response.json', answer.payload).errors,
          [],
          description,
        );
      }
      const syncs = examplesOf('creative/sync-creatives-request.json');
      assert.ok(syncs.length > 0);
      for (const { description, data } of syncs) {
        const answer = await call(creative, 'sync_creatives', { ...data, idempotency_key: randomUUID() });
        // Their formats are another creative agent's: refused per creative, never as a malformed request.
        const text = JSON.stringify(answer.payload);
        assert.doesNotMatch(text, /Invalid argument/, `${description}: ${text}`);
        assert.match(text, /FORMAT_NOT_SUPPORTED/, `${description}: ${text}`);
      }
    });
  });
}
