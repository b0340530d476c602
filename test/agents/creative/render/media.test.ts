import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rasterOf } from '../../../../src/agents/creative/render/raster.ts';
import { playableFile, readAdTag } from '../../../../src/agents/creative/render/vast.ts';
import { solidPng } from './fixtures.ts';

const bytes = (...parts: Array<number[] | string>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('image sniffing', () => {
  it('knows PNG, GIF and JPEG by their bytes, with their size', () => {
    assert.deepEqual(rasterOf(solidPng(30, 20, '#000')), { mime: 'image/png', width: 30, height: 20 });
    assert.deepEqual(rasterOf(bytes('GIF89a', [40, 0, 10, 0], [0, 0, 0])), {
      mime: 'image/gif',
      width: 40,
      height: 10,
    });
    const app0 = [0xff, 0xe0, 0, 16, ...bytes('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
    const sof0 = [0xff, 0xc0, 0, 17, 8, 0x02, 0x58, 0x04, 0x00, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
    assert.deepEqual(rasterOf(bytes([0xff, 0xd8], app0, sof0)), { mime: 'image/jpeg', width: 1024, height: 600 });
  });

  it('refuses what resvg would not draw or should not decode', () => {
    assert.equal(rasterOf(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ', [0, 0, 0, 0, 0, 0, 0, 0])), undefined, 'WebP');
    assert.equal(rasterOf(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined, 'SVG');
    assert.equal(rasterOf(new Uint8Array(0)), undefined);
    const huge = solidPng(10, 10, '#000');
    new DataView(huge.buffer, huge.byteOffset).setUint32(16, 100_000);
    new DataView(huge.buffer, huge.byteOffset).setUint32(20, 100_000);
    assert.equal(rasterOf(huge), undefined, 'ten gigapixels');
  });
});

describe('VAST and DAAST', () => {
  it('reads media files from CDATA and text, and a wrapper’s tag URL', () => {
    const tag = readAdTag(`<VAST><Ad><InLine><Creatives><Creative><Linear><MediaFiles>
      <MediaFile type="video/MP4" delivery="progressive" apiFramework=""><![CDATA[https://cdn.test/a.mp4?x=1&y=2]]></MediaFile>
      <MediaFile type="video/webm">https://cdn.test/b.webm?x=1&amp;y=2</MediaFile>
    </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>`);
    assert.deepEqual(tag.mediaFiles, [
      { url: 'https://cdn.test/a.mp4?x=1&y=2', type: 'video/mp4', apiFramework: '', delivery: 'progressive' },
      { url: 'https://cdn.test/b.webm?x=1&y=2', type: 'video/webm', apiFramework: '', delivery: '' },
    ]);
    assert.equal(
      readAdTag('<DAAST><Ad><Wrapper><AdTagURI><![CDATA[ https://ads.test/daast ]]></AdTagURI></Wrapper></Ad></DAAST>')
        .wrapperUrl,
      'https://ads.test/daast',
    );
    assert.deepEqual(readAdTag('not xml at all <<<'), { mediaFiles: [] });
    assert.deepEqual(
      readAdTag(
        '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><VAST><MediaFile type="video/mp4">&e;</MediaFile></VAST>',
      ).mediaFiles[0]?.url,
      '&e;',
      'no external entity is read',
    );
  });

  it('picks what a browser’s own player plays: progressive MP4 first, never VPAID, only URLs it accepts', () => {
    const file = (url: string, type: string, apiFramework = '', delivery = 'progressive') => ({
      url,
      type,
      apiFramework,
      delivery,
    });
    const accept = (url: string) => (url.startsWith('https:') ? url : undefined);
    const files = [
      file('https://x/vpaid.js', 'application/javascript', 'vpaid'),
      file('https://x/s.mp4', 'video/mp4', '', 'streaming'),
      file('https://x/a.webm', 'video/webm'),
      file('http://x/a.mp4', 'video/mp4'),
      file('https://x/a.mp4', 'video/mp4'),
    ];
    assert.equal(playableFile(files, 'video', accept), 'https://x/a.mp4');
    assert.equal(playableFile(files.slice(0, 3), 'video', accept), 'https://x/a.webm');
    assert.equal(playableFile(files.slice(0, 1), 'video', accept), undefined);
    assert.equal(
      playableFile([file('https://x/a.mp3', 'audio/mpeg'), file('https://x/v.mp4', 'video/mp4')], 'audio', accept),
      'https://x/a.mp3',
    );
  });
});
