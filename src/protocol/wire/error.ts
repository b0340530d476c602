import { Type } from 'typebox';
import { errorCatalogue, type ErrorCode } from '../errors.ts';

const FieldIssue = Type.Object({
  in: Type.String({ description: 'The part of the request: body, querystring, params or headers.' }),
  field: Type.String({ description: 'Dotted path of the offending field inside that part.' }),
  message: Type.String(),
});

/** The body of every error response but the agents' protocol envelopes. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Stable error code from the catalogue.', examples: ['validation_failed'] }),
    message: Type.String({ description: 'Human-readable explanation; never a stack trace.' }),
    details: Type.Optional(Type.Array(FieldIssue, { description: 'The offending fields, for validation_failed.' })),
    retry_after: Type.Optional(Type.Integer({ minimum: 0, description: 'Seconds to wait before retrying (429).' })),
  },
  { $id: 'ErrorBody', description: 'Error response.' },
);

/** Codes a status can answer with, for the response description in the OpenAPI document. */
function codesFor(status: number): ErrorCode[] {
  return (Object.keys(errorCatalogue) as ErrorCode[]).filter((code) => errorCatalogue[code].status === status);
}

/**
 * Response schemas for the given error statuses, to spread into a route's `response`. Every route
 * also documents 500, which any request can meet.
 */
export function errorResponses(...statuses: number[]): Record<number, ReturnType<typeof Type.Ref>> {
  const out: Record<number, ReturnType<typeof Type.Ref>> = {};
  for (const status of new Set([...statuses, 500])) {
    out[status] = Type.Ref('ErrorBody', { description: `Error: ${codesFor(status).join(', ') || 'see error code'}.` });
  }
  return out;
}
