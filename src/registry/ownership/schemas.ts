import { Type } from 'typebox';

export const ChallengeRequest = Type.Object(
  { domain: Type.String({ minLength: 1, maxLength: 253 }) },
  { additionalProperties: false },
);

export const Challenge = Type.Object(
  {
    challenge_id: Type.String({ format: 'uuid' }),
    domain: Type.String(),
    nonce: Type.String({ description: 'Single-use; valid for this organization and domain only.' }),
    expires_at: Type.String({ format: 'date-time', description: 'At most 15 minutes after issue.' }),
    dns: Type.Object({
      name: Type.String({ description: '`_ap-owner.{domain}`' }),
      type: Type.Literal('TXT'),
      value: Type.String({ description: 'The nonce, as the whole record value.' }),
    }),
    http: Type.Object({
      url: Type.String({ description: '`https://{domain}/.well-known/ap-ownership.txt`, served without redirects.' }),
      body: Type.String({ description: 'The nonce, on a line of its own.' }),
    }),
  },
  { $id: 'OwnershipChallenge' },
);

export const VerifyParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const VerifyRequest = Type.Object(
  { method: Type.Union([Type.Literal('dns'), Type.Literal('http')]) },
  { additionalProperties: false },
);

export const Verified = Type.Object(
  {
    verified: Type.Literal(true),
    domain: Type.String(),
    method: Type.Union([Type.Literal('dns'), Type.Literal('http')]),
    proved_at: Type.String({ format: 'date-time' }),
    valid_until: Type.String({
      format: 'date-time',
      description: 'Saves by this organization need no new proof until then.',
    }),
  },
  { $id: 'OwnershipProof' },
);
