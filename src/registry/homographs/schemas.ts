import { Type } from 'typebox';

const Kind = Type.Union([Type.Literal('brand'), Type.Literal('property')], { description: 'Which save was held.' });
const Status = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]);
/** Why a domain looks suspicious. */
export const Reason = Type.Union(
  [Type.Literal('deny_list'), Type.Literal('registered_brand'), Type.Literal('registered_property')],
  {
    description:
      '`deny_list`: looks like a brand on the operator’s deny list; `registered_brand` / `registered_property`: looks like a domain already registered.',
  },
);
export const SimilarTo = Type.String({
  description: 'What the domain looks like: the deny-listed brand’s name, or the registered domain.',
});

/**
 * The 202 answer of a save held for review. Save routes list it as `202: HeldForReview` in their
 * responses and send `heldForReview(review)` / the body `holdIfAmbiguous` returns.
 */
export const HeldForReview = Type.Object(
  {
    status: Type.Literal('held_for_review'),
    review_id: Type.String({ format: 'uuid' }),
    domain: Type.String(),
    reason: Reason,
    similar_to: SimilarTo,
    message: Type.String(),
  },
  {
    description:
      'The domain looks like a protected brand or a registered domain (UTS #39 confusables): nothing was saved yet; a registry administrator approves (the save is then applied) or rejects it.',
  },
);

export const HomographReview = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: Kind,
    domain: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The held save’s request body, as sent.' }),
    organization_id: Type.Union([Type.String(), Type.Null()], { description: 'The organization the save acted for.' }),
    submitted_by: Type.String({ description: 'Who sent the save.' }),
    source: Type.Union([Type.Literal('save'), Type.Literal('community_submission')], {
      description:
        '`save`: a save held because its domain looks like another; `community_submission`: sent to the deprecated `POST /api/brands/discovered/community`, which always waits for a decision.',
    }),
    reason: Type.Union([Reason, Type.Null()], {
      description:
        'Why the domain looks suspicious; null for a community submission that looks like nothing registered or protected.',
    }),
    similar_to: Type.Union([SimilarTo, Type.Null()]),
    status: Status,
    decided_by: Type.Union([Type.String(), Type.Null()]),
    decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()], { description: 'The deciding administrator’s note.' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'HomographReview',
    description: 'A save held because its domain looks like another, or a community submission waiting for a decision.',
  },
);

export const ReviewsQuery = Type.Object({
  status: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')], { default: 'pending' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});

export const ReviewsPage = Type.Object(
  {
    reviews: Type.Array(Type.Ref('HomographReview'), { description: 'Newest first.' }),
    total: Type.Integer({ minimum: 0, description: 'Reviews with this status.' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
  },
  { description: 'A page of the review queue.' },
);

export const ReviewParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'The review’s id.' }) });

export const DecisionBody = Type.Object(
  {
    decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')], {
      description: '`approve` applies the held save; `reject` discards it.',
    }),
    note: Type.Optional(Type.String({ maxLength: 2000, description: 'Kept with the decision.' })),
  },
  { additionalProperties: false },
);
