-- Why: the sales agent's test controller also seeds products, pricing options (of a product) and
-- creative formats for a sandbox account, which that account's get_products, create_media_buy,
-- sync_creatives and list_creative_formats then read as catalog data. A pricing option's id is its
-- product's, so a seed is now keyed by its parent too ('' for entities that have none), and an
-- account's catalog seeds are read on each of its calls, by account.
alter table sales_test_seeds drop constraint sales_test_seeds_kind_check;
alter table sales_test_seeds add constraint sales_test_seeds_kind_check
  check (kind in ('creative', 'media_buy', 'product', 'pricing_option', 'creative_format'));
alter table sales_test_seeds add column parent_id text not null default '';
alter table sales_test_seeds drop constraint sales_test_seeds_pkey;
alter table sales_test_seeds add primary key (kind, account_id, parent_id, entity_id);
create index sales_test_seeds_account on sales_test_seeds (account_id, kind);
