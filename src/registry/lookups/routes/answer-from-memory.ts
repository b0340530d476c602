import type { FastifyReply } from 'fastify';
import type { IndexAnswers } from '../index-answers.ts';
import { liveIndex } from './live-index.ts';
import type { AuthorizationIndex } from '../authorization-index.ts';
import type { IndexFollower } from '../index-follower.ts';

/**
 * Sends the answer to this request URL as serialized for the index as it stands: computed and
 * serialized (by the route's response schema) the first time the URL is asked after a change, then
 * sent as it was. An ad server asks the same few questions per impression, all day.
 */
export function answerFromMemory(reply: FastifyReply, follower: IndexFollower, answers: IndexAnswers<string>, url: string, compute: (index: AuthorizationIndex) => unknown): FastifyReply {
  const index = liveIndex(follower);
  const body = answers.get(index, url, () => reply.serialize(compute(index)) as string);
  return reply.type('application/json; charset=utf-8').send(body);
}
