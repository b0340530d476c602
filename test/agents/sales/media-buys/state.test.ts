import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { nextStatus } from '../../../../src/agents/sales/media-buys/flight-pass.ts';
import {
  canMove,
  isTerminal,
  mediaBuyStatuses,
  moves,
  nextStatuses,
  validActions,
  type MediaBuyStatus,
} from '../../../../src/agents/sales/media-buys/index.ts';
import { resumedStatus, runningStatus, statusWithCreatives } from '../../../../src/agents/sales/media-buys/state.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';

const published = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../../../schemas/3.0.6/enums/${file}`, import.meta.url), 'utf8')) as {
    enum: string[];
  };

const changes = ['update_budget', 'update_dates', 'update_packages', 'add_packages', 'sync_creatives'];

it('answers valid_actions per status from the table', () => {
  const expected: Record<MediaBuyStatus, string[]> = {
    pending_creatives: ['pause', 'cancel', ...changes],
    pending_start: ['pause', 'cancel', ...changes],
    active: ['pause', 'cancel', ...changes],
    paused: ['resume', 'cancel', ...changes],
    completed: [],
    rejected: [],
    canceled: [],
  };
  for (const status of mediaBuyStatuses) assert.deepEqual(validActions(status), expected[status], status);
});

it('offers at least the published expected valid_actions of every status (get_media_buys "Valid Actions Mapping")', () => {
  const mapping: Record<MediaBuyStatus, string[]> = {
    pending_creatives: ['cancel', 'sync_creatives'],
    pending_start: ['cancel', 'sync_creatives'],
    active: ['pause', 'cancel', 'update_budget', 'update_dates', 'update_packages', 'add_packages', 'sync_creatives'],
    paused: ['resume', 'cancel', 'update_budget', 'update_dates', 'update_packages', 'add_packages', 'sync_creatives'],
    completed: [],
    rejected: [],
    canceled: [],
  };
  for (const status of mediaBuyStatuses)
    for (const action of mapping[status])
      assert.ok(validActions(status).includes(action as never), `${status}: ${action}`);
});

it('moves exactly as the table says, each pair of statuses', () => {
  // [from, to]: the moves the state machine has; every other pair is none.
  const allowed = new Set([
    'pending_creatives>pending_start',
    'pending_creatives>active',
    'pending_creatives>paused',
    'pending_creatives>completed',
    'pending_creatives>rejected',
    'pending_creatives>canceled',
    'pending_start>active',
    'pending_start>paused',
    'pending_start>completed',
    'pending_start>rejected',
    'pending_start>canceled',
    'active>paused',
    'active>completed',
    'active>canceled',
    'paused>pending_start',
    'paused>active',
    'paused>completed',
    'paused>canceled',
  ]);
  for (const from of mediaBuyStatuses) {
    for (const to of mediaBuyStatuses)
      assert.equal(canMove(from, to), allowed.has(`${from}>${to}`), `${from} -> ${to}`);
    assert.deepEqual(
      nextStatuses(from),
      mediaBuyStatuses.filter((to) => allowed.has(`${from}>${to}`)),
      from,
    );
  }
});

it('keeps the published rules: terminal states, rejection before running only, pause and resume by the buyer, the flight starting and ending buys, cancel from anything unfinished', () => {
  for (const status of ['completed', 'rejected', 'canceled'] as const) {
    assert.ok(isTerminal(status), status);
    assert.deepEqual(nextStatuses(status), [], `nothing leaves ${status}`);
  }
  for (const status of ['pending_creatives', 'pending_start', 'active', 'paused'] as const) {
    assert.ok(!isTerminal(status), status);
    assert.ok(canMove(status, 'canceled', 'buyer'), `${status} -> canceled`);
    assert.ok(canMove(status, 'completed', 'flight'), `${status} -> completed when the flight ends`);
  }
  assert.deepEqual(
    mediaBuyStatuses.filter((s) => canMove(s, 'rejected')),
    ['pending_creatives', 'pending_start'],
  );
  assert.ok(canMove('pending_start', 'active', 'flight'));
  assert.ok(
    canMove('active', 'paused', 'buyer') &&
      canMove('paused', 'active', 'buyer') &&
      canMove('paused', 'pending_start', 'buyer'),
  );
  assert.ok(!canMove('pending_creatives', 'active', 'flight'), 'the flight starts only a buy that has its creatives');
  assert.deepEqual(
    mediaBuyStatuses.filter((s) => canMove(s, 'pending_creatives')),
    [],
    'only creation gives pending_creatives',
  );
});

it('knows every status and action of the protocol, and nothing else', () => {
  assert.deepEqual([...mediaBuyStatuses], published('media-buy-status.json').enum);
  const actions = published('media-buy-valid-action.json').enum;
  for (const move of moves) {
    for (const status of [...move.from, move.to]) assert.ok(mediaBuyStatuses.includes(status));
    if (move.action) assert.ok(actions.includes(move.action));
  }
  for (const status of mediaBuyStatuses) {
    for (const action of validActions(status))
      assert.deepEqual(validateSchema('/schemas/3.0.6/enums/media-buy-valid-action.json', action).errors, [], action);
  }
});

it('gives a new buy, a resumed one, one given creatives and the flight pass the statuses of the table', () => {
  const now = new Date('2026-08-01T00:00:00Z');
  const later = new Date('2026-08-10T00:00:00Z');
  const earlier = new Date('2026-07-20T00:00:00Z');
  assert.equal(runningStatus({ creatives: 0, start: later }, now), 'pending_creatives');
  assert.equal(runningStatus({ creatives: 1, start: later }, now), 'pending_start');
  assert.equal(runningStatus({ creatives: 1, start: earlier }, now), 'active');

  assert.equal(resumedStatus(later, now), 'pending_start', 'resumed before its start');
  assert.equal(resumedStatus(earlier, now), 'active', 'resumed in flight, creatives or not');

  assert.equal(statusWithCreatives('pending_creatives', true, later, now), 'pending_start');
  assert.equal(statusWithCreatives('pending_creatives', true, earlier, now), 'active');
  for (const status of ['pending_start', 'active', 'paused'] as const)
    assert.equal(
      statusWithCreatives(status, false, earlier, now),
      status,
      `${status} keeps its status without creatives`,
    );
  assert.equal(statusWithCreatives('pending_creatives', false, earlier, now), 'pending_creatives');

  const flight = { start: earlier, end: later };
  assert.equal(nextStatus('pending_start', flight, now), 'active');
  assert.equal(
    nextStatus('pending_creatives', flight, now),
    undefined,
    'started without creatives: it still waits for them',
  );
  assert.equal(nextStatus('active', flight, now), undefined);
  assert.equal(nextStatus('paused', flight, now), undefined);
  for (const status of ['pending_creatives', 'pending_start', 'active', 'paused'] as const)
    assert.equal(nextStatus(status, flight, later), 'completed', status);
  for (const status of ['completed', 'rejected', 'canceled'] as const)
    assert.equal(nextStatus(status, flight, later), undefined, status);
});
