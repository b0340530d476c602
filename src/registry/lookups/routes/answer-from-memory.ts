import type { FastifyReply } from 'fastify';
import type { Clock } from '../../../clock.ts';
import type { IndexAnswers } from '../index-answers.ts';
import { liveIndex } from './live-index.ts';
import type { AuthorizationIndex } from '../authorization-index.ts';
import type { IndexSource } from '../index-source.ts';

/**
 * Sends the answer to this request URL as serialized for the index as it stands: computed and
 * serialized (by the route's response schema) the first time the URL is asked after a change, then
 * sent as it was. An ad server asks the same few questions per impression, all day.
 */
export function answerFromMemory(
  reply: FastifyReply,
  follower: IndexSource,
  answers: IndexAnswers<string>,
  url: string,
  compute: (index: AuthorizationIndex) => unknown,
): FastifyReply {
  const index = liveIndex(follower);
  const body = answers.get(index, url, () => reply.serialize(compute(index)) as string);
  return reply.type('application/json; charset=utf-8').send(body);
}

const stampHead = '{"checked_at":"';

/**
 * As answerFromMemory, for an answer that says when it was given: its response schema lists
 * `checked_at` first and `compute` gives it as '', so what is kept is the answer after that
 * field's opening, and each request writes its own time in front. Two string joins per request,
 * rather than a new answer serialized.
 */
export function answerStampedFromMemory(
  reply: FastifyReply,
  follower: IndexSource,
  answers: IndexAnswers<string>,
  url: string,
  now: () => string,
  compute: (index: AuthorizationIndex) => { checked_at: '' },
): FastifyReply {
  const index = liveIndex(follower);
  const rest = answers.get(index, url, () => unstamped(reply.serialize(compute(index)) as string));
  return reply.type('application/json; charset=utf-8').send(stampHead + now() + rest);
}

/**
 * The whole answer to a stamped GET kept for `url` from the index as it stands, stamped now; none
 * when it is not kept (the route computes it) or the index is not live. For a server that answers
 * kept answers before its framework sees the request (a mirror's).
 */
export function keptStampedAnswer(
  answers: IndexAnswers<string>,
  source: IndexSource,
  url: string,
  now: () => string,
): string | undefined {
  if (!source.live) return undefined;
  const rest = answers.peek(source.index, url);
  return rest === undefined ? undefined : stampHead + now() + rest;
}

function unstamped(body: string): string {
  if (!body.startsWith(`${stampHead}"`))
    throw new Error('a stamped answer begins with an empty checked_at: its response schema lists checked_at first');
  return body.slice(stampHead.length);
}

/** The clock's time as an ISO string, made once per millisecond however many answers share it. */
export function isoStamps(clock: Clock): () => string {
  let ms = Number.NaN;
  let iso = '';
  return () => {
    const now = clock.now();
    const t = now.getTime();
    if (t !== ms) {
      ms = t;
      iso = now.toISOString();
    }
    return iso;
  };
}
