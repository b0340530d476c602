-- Why: the published request schemas take any idempotency key of 16 to 255 letters, digits and
-- `_ . : -` (buyers' tools send readable ones such as `invalid-transitions-setup-v1`), not only a
-- UUID; the key a request carries is stored as sent (a UUID lowercased).
alter table idempotency_records alter column idempotency_key type text;
