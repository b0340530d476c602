import { Type } from 'typebox';
import { Domain } from '../../protocol/wire/common.ts';

export const Revision = Type.Object(
  {
    revision_number: Type.Integer({ minimum: 1 }),
    editor_name: Type.String({ description: '`system` marks automated enrichment.' }),
    edit_summary: Type.String(),
    source: Type.String({ description: 'Source of the entry at this revision, e.g. community or enriched.' }),
    is_rollback: Type.Boolean(),
    rolled_back_to: Type.Optional(Type.Integer({ minimum: 1, description: 'The restored revision, when is_rollback is true.' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Revision' },
);

export const History = Type.Object(
  {
    domain: Type.String(),
    total: Type.Integer({ minimum: 0 }),
    revisions: Type.Array(Type.Ref('Revision'), { description: 'Newest first.' }),
  },
  { description: 'Revision history of the entry.' },
);

export const HistoryQuery = Type.Object({
  domain: Domain,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});

export const RollbackBody = Type.Object(
  {
    domain: Domain,
    to_revision: Type.Integer({ minimum: 1, description: 'The revision whose content to restore.' }),
  },
  { additionalProperties: false },
);
