import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentErrorCatalogue } from '../../src/protocol/errors.ts';
import { schemasDir } from '../../src/protocol/schemas.ts';

const vocabulary = JSON.parse(readFileSync(join(schemasDir, '3.0.6/enums/error-code.json'), 'utf8')) as {
  enum: string[];
  enumMetadata: Record<string, { recovery: string }>;
};

describe('agent error catalogue', () => {
  it('has every code of the protocol vocabulary, with its recovery', () => {
    for (const code of vocabulary.enum) {
      const entry = (agentErrorCatalogue as Record<string, { recovery: string }>)[code];
      assert.ok(entry, `${code} is in the catalogue`);
      assert.equal(entry.recovery, vocabulary.enumMetadata[code]!.recovery, code);
    }
  });

  it('keeps the agent-tasks spec codes and gives every code an error status and a message', () => {
    for (const code of [
      'UNAUTHORIZED',
      'INVALID_FORMAT_ID',
      'SIGNAL_AGENT_SEGMENT_NOT_FOUND',
      'ACTIVATION_FAILED',
      'ALREADY_ACTIVATED',
      'DEPLOYMENT_UNAUTHORIZED',
      'AGENT_NOT_FOUND',
      'AGENT_ACCESS_DENIED',
    ]) {
      assert.ok(code in agentErrorCatalogue, code);
    }
    for (const [code, entry] of Object.entries(agentErrorCatalogue)) {
      assert.match(code, /^[A-Z]+(_[A-Z]+)*$/);
      assert.ok(entry.status >= 400 && entry.status < 600, code);
      assert.ok(['transient', 'correctable', 'terminal'].includes(entry.recovery), code);
      assert.ok(entry.message.length > 0, code);
    }
  });
});
