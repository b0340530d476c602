import { Type } from 'typebox';
import { MAX_FINDINGS } from '../../documents/adagents-validation/validate.ts';

/** What the adagents.json tools' answers share: findings, the judged file, and the examples' names. */

export const Timestamp = Type.String({ format: 'date-time' });
export const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });
export const FreeObject = (description: string, examples?: unknown[], maxProperties?: number) =>
  Type.Object(
    {},
    {
      additionalProperties: true,
      description,
      ...(examples ? { examples } : {}),
      ...(maxProperties ? { maxProperties } : {}),
    },
  );

export const exampleDomain = 'dailyplanet.example';
export const exampleUrl = `https://${exampleDomain}/.well-known/adagents.json`;
export const exampleAgent = 'https://sales.meridian.example/mcp';

export const Finding = Type.Object(
  {
    code: Type.String({
      description: 'Stable code (listed in the operation’s description); codes are only ever added.',
    }),
    message: Type.String({ description: 'What is wrong and how to fix it.' }),
    path: Type.String({ description: 'Where, as a JSON Pointer (RFC 6901) into the file; "" is the whole file.' }),
  },
  {
    examples: [
      {
        code: 'unknown_property_tag',
        message: 'no property in this file has the tag "sports", so it selects nothing',
        path: '/authorized_agents/1/property_tags/0',
      },
    ],
  },
);

export const Omitted = Type.Object(
  { errors: Type.Integer({ minimum: 0 }), warnings: Type.Integer({ minimum: 0 }) },
  { description: `How many findings of each kind were left out: each list keeps the first ${MAX_FINDINGS}.` },
);

export const Judged = Type.Object(
  {
    valid: Type.Boolean({ description: 'No errors (warnings allowed).' }),
    errors: Type.Array(Finding),
    warnings: Type.Array(Finding),
    omitted: Type.Optional(Omitted),
  },
  { description: 'The findings: errors make the file unusable as published, warnings are worth fixing.' },
);
