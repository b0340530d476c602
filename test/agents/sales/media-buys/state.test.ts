import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { mediaBuyStatuses, validActions } from '../../../../src/agents/sales/media-buys/index.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';

it('offers pause to a buy not paused nor finished, resume to a paused one, and nothing to a finished one', () => {
  for (const status of ['pending_creatives', 'pending_start', 'active'] as const) {
    assert.deepEqual(validActions(status), ['pause', 'cancel', 'update_budget', 'update_dates', 'update_packages', 'add_packages', 'sync_creatives'], status);
  }
  assert.deepEqual(validActions('paused'), ['resume', 'cancel', 'update_budget', 'update_dates', 'update_packages', 'add_packages', 'sync_creatives']);
  for (const status of ['completed', 'rejected', 'canceled'] as const) assert.deepEqual(validActions(status), [], status);
});

it('knows every status of the protocol, and answers only its valid actions', () => {
  const published = JSON.parse(readFileSync(new URL('../../../../schemas/3.0.6/enums/media-buy-status.json', import.meta.url), 'utf8')) as { enum: string[] };
  assert.deepEqual([...mediaBuyStatuses], published.enum);
  for (const status of mediaBuyStatuses) {
    for (const action of validActions(status)) assert.deepEqual(validateSchema('/schemas/3.0.6/enums/media-buy-valid-action.json', action).errors, [], action);
  }
});
