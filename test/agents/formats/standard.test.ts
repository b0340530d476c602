import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { standardFormats, type Asset } from '../../../src/agents/formats/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';

const agentUrl = 'https://ap.example/creative/mcp';

describe('standard formats', () => {
  it('are the fixed set the catalogs name, each with the creative agent’s URL in its format_id', () => {
    const formats = standardFormats(agentUrl);
    assert.deepEqual(
      formats.map((f) => f.format_id),
      ['display_300x250', 'display_728x90', 'display_320x50', 'display_160x600', 'display_300x600', 'video_15s', 'video_30s', 'ctv_video_30s', 'audio_30s', 'native_in_feed', 'dooh_1920x1080'].map(
        (id) => ({ agent_url: agentUrl, id }),
      ),
    );
  });

  it('each validate against core/format.json', () => {
    for (const format of standardFormats(agentUrl)) {
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/format.json', format).errors, [], format.format_id.id);
    }
  });

  it('are the same for any creative agent but for its URL', () => {
    const elsewhere = standardFormats('https://other.example/mcp').map((f) => ({ ...f, format_id: { ...f.format_id, agent_url: agentUrl } }));
    assert.deepEqual(elsewhere, standardFormats(agentUrl));
  });

  it('carry the spec’s type and assets_required beside the schema’s assets', () => {
    for (const format of standardFormats(agentUrl)) {
      assert.ok(['display', 'video', 'audio', 'dooh'].includes(format.type!), format.format_id.id);
      assert.deepEqual(format.assets_required, (format.assets as Asset[]).filter((a) => a.required), format.format_id.id);
      assert.ok(format.assets_required!.length > 0, format.format_id.id);
    }
  });

  it('ask for display images of exactly the size in their id, rendered at that size', () => {
    const banners = standardFormats(agentUrl).filter((f) => f.format_id.id.startsWith('display_'));
    assert.equal(banners.length, 5);
    for (const format of banners) {
      const [width, height] = format.format_id.id.slice('display_'.length).split('x').map(Number);
      assert.deepEqual(format.renders!.map((r) => [r.dimensions?.width, r.dimensions?.height]), [[width, height]]);
      const image = (format.assets as Asset[]).find((a) => a.asset_type === 'image' && a.required)!;
      assert.deepEqual([image.requirements!['min_width'], image.requirements!['max_width'], image.requirements!['min_height'], image.requirements!['max_height']], [width, width, height, height]);
    }
  });

  it('ask for video and audio of the duration in their id', () => {
    for (const format of standardFormats(agentUrl).filter((f) => f.type === 'video' || f.type === 'audio')) {
      const seconds = Number(/_(\d+)s$/.exec(format.format_id.id)![1]);
      const media = (format.assets as Asset[]).find((a) => a.asset_type === format.type)!;
      const { min_duration_ms: min, max_duration_ms: max } = media.requirements as { min_duration_ms: number; max_duration_ms: number };
      assert.ok(min <= seconds * 1000 && seconds * 1000 <= max && max - min <= 1000, format.format_id.id);
    }
  });

  it('are fresh objects at each call, so a caller’s change does not leak into the next answer', () => {
    const first = standardFormats(agentUrl);
    first[0]!.name = 'changed';
    (first[0]!.assets![0] as Asset).required = false;
    const second = standardFormats(agentUrl);
    assert.equal(second[0]!.name, 'Medium Rectangle 300x250');
    assert.equal((second[0]!.assets![0] as Asset).required, true);
  });
});
