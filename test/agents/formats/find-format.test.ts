import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  agentKey,
  findFormat,
  sameAgentUrl,
  sameFormatId,
  standardFormats,
} from '../../../src/agents/formats/index.ts';

const own = 'https://ap.example/creative/mcp';
const formats = standardFormats(own);
const found = (agent_url: string, id = 'display_300x250', ownUrl = own) =>
  findFormat(formats, { agent_url, id }, ownUrl)?.format_id.id;

describe('findFormat', () => {
  it('finds a format by its id when the request names this agent as it names itself', () => {
    assert.equal(found(own), 'display_300x250');
    assert.equal(found(own, 'audio_daast_30s'), 'audio_daast_30s');
    assert.equal(
      findFormat(formats, { agent_url: own, id: 'video_vast_15s' }, own),
      formats.find((f) => f.format_id.id === 'video_vast_15s'),
    );
  });

  it('finds it whatever the spelling of this agent’s URL: case of scheme and host, default port, escapes, trailing slash, with or without the transport segment', () => {
    for (const spelling of [
      'HTTPS://AP.EXAMPLE/creative/mcp',
      'https://Ap.Example/creative/mcp',
      'https://ap.example:443/creative/mcp',
      'https://ap.example/%63reative/mcp',
      'https://ap.example/creative/mcp/',
      'https://ap.example/creative/mcp//',
      'https://ap.example/creative',
      'https://ap.example/creative/',
      'https://ap.example/creative/a2a',
      'https://ap.example/creative/a2a/',
      'https://ap.example/creative/mcp#tools',
    ]) {
      assert.equal(found(spelling), 'display_300x250', spelling);
    }
  });

  it('finds it when this agent is known by another spelling than the one in its formats', () => {
    assert.equal(found(own, 'video_15s', 'https://ap.example/creative'), 'video_15s');
    assert.equal(
      found('https://ap.example/creative/a2a', 'video_15s', 'HTTPS://ap.example:443/creative/mcp/'),
      'video_15s',
    );
    const atRoot = standardFormats('https://creative.example/mcp');
    for (const spelling of ['https://creative.example', 'https://creative.example/', 'https://creative.example/mcp/']) {
      assert.equal(
        findFormat(atRoot, { agent_url: spelling, id: 'html5_728x90' }, 'https://creative.example/mcp')?.format_id.id,
        'html5_728x90',
        spelling,
      );
    }
  });

  it('finds nothing for another agent, whatever it is called, nor for an id this agent does not define', () => {
    for (const other of [
      'http://ap.example/creative/mcp',
      'https://ap.example:8443/creative/mcp',
      'https://ap.example/Creative/mcp',
      'https://ap.example/sales/mcp',
      'https://ap.example/creative/mcp/extra',
      'https://ap.example/creativemcp',
      'https://ap.example/mcp',
      'https://other.example/creative/mcp',
      'https://ap.example.evil.example/creative/mcp',
      'https://ap.example/creative/mcp?tenant=other',
      'creative',
      '',
    ]) {
      assert.equal(found(other), undefined, other);
    }
    assert.equal(found(own, 'hologram_3d'), undefined);
    assert.equal(found(own, 'DISPLAY_300x250'), undefined, 'ids are compared exactly');
  });

  it('finds none of another agent’s formats in a list that mixes agents, even by an id this agent also has', () => {
    const mixed = [...standardFormats('https://other.example/mcp').slice(0, 1), ...formats.slice(1)];
    assert.equal(findFormat(mixed, { agent_url: own, id: 'display_300x250' }, own), undefined);
    assert.equal(findFormat(mixed, { agent_url: 'https://other.example/mcp', id: 'display_300x250' }, own), undefined);
  });
});

describe('agentKey and sameFormatId', () => {
  it('give every spelling of one agent one key, and other agents others', () => {
    assert.equal(agentKey('HTTPS://AP.example:443/creative/mcp/'), 'https://ap.example/creative');
    assert.equal(agentKey('https://ap.example/creative/a2a'), 'https://ap.example/creative');
    assert.equal(agentKey('https://ap.example/'), 'https://ap.example');
    assert.equal(agentKey('https://ap.example:8443/x/mcp?v=1'), 'https://ap.example:8443/x?v=1');
    assert.equal(agentKey('not a url'), 'not a url');
  });

  it('compare format ids by id and agent', () => {
    assert.equal(
      sameFormatId({ agent_url: own, id: 'video_30s' }, { agent_url: 'https://AP.example/creative', id: 'video_30s' }),
      true,
    );
    assert.equal(sameFormatId({ agent_url: own, id: 'video_30s' }, { agent_url: own, id: 'video_15s' }), false);
    assert.equal(
      sameFormatId({ agent_url: own, id: 'video_30s' }, { agent_url: 'https://ap.example/sales/mcp', id: 'video_30s' }),
      false,
    );
  });
});

describe('an agent listening on loopback', () => {
  const local = 'http://127.0.0.1:3000/creative/mcp';
  const atLoopback = standardFormats(local);
  const foundAt = (agent_url: string, ownUrl = local) =>
    findFormat(atLoopback, { agent_url, id: 'display_300x250' }, ownUrl)?.format_id.id;

  it('is found by any loopback spelling of its host, with the same port and path', () => {
    for (const spelling of [
      'http://localhost:3000/creative/mcp',
      'http://LOCALHOST:3000/creative',
      'http://127.0.0.1:3000/creative/mcp',
      'http://[::1]:3000/creative/mcp',
      'http://127.0.0.2:3000/creative/a2a',
    ]) {
      assert.equal(foundAt(spelling), 'display_300x250', spelling);
    }
    assert.equal(
      foundAt(local, 'http://localhost:3000/creative/mcp'),
      'display_300x250',
      'introduced as localhost, its formats naming 127.0.0.1',
    );
    assert.equal(foundAt('http://[::1]:3000/creative/mcp', 'http://localhost:3000/creative/mcp'), 'display_300x250');
  });

  it('is not found by another port, path or scheme, nor by a host that only looks local', () => {
    for (const other of [
      'http://localhost:3001/creative/mcp',
      'http://localhost/creative/mcp',
      'https://localhost:3000/creative/mcp',
      'http://localhost:3000/sales/mcp',
      'http://localhost.example:3000/creative/mcp',
      'http://10.0.0.1:3000/creative/mcp',
      'http://0.0.0.0:3000/creative/mcp',
    ]) {
      assert.equal(foundAt(other), undefined, other);
    }
  });

  it('gives every loopback spelling one key, and sameAgentUrl says so', () => {
    assert.equal(agentKey('http://[::1]:3000/creative/mcp'), 'http://localhost:3000/creative');
    assert.equal(agentKey('http://127.0.0.1/signals/mcp'), 'http://localhost/signals');
    assert.equal(sameAgentUrl('http://localhost:3000/signals/mcp', 'http://127.0.0.1:3000/signals/mcp'), true);
    assert.equal(sameAgentUrl('http://localhost:3000/signals/mcp', 'http://127.0.0.1:3001/signals/mcp'), false);
    assert.equal(
      sameFormatId(
        { agent_url: 'http://localhost:3000/creative/mcp', id: 'video_30s' },
        { agent_url: 'http://127.0.0.1:3000/creative/mcp', id: 'video_30s' },
      ),
      true,
    );
  });
});
