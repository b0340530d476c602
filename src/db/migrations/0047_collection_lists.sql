-- Why: collection lists (collection/*.json) are property lists' twin: the same tasks, token, webhook
-- and record of what they resolved to, over the registry's collections instead of its properties.
-- One table holds both, told apart by `kind`; a list's tasks read only lists of their own kind.
alter table governance_property_lists rename to governance_lists;
alter index governance_property_lists_by_owner rename to governance_lists_by_owner;
alter table governance_lists add column kind text not null default 'property' check (kind in ('property', 'collection'));
