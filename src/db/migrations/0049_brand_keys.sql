-- Why: the brand agent finds a brand by the id its house's brand.json gives it (`brand_key`), as
-- buyers name brands in get_brand_identity; without an index that lookup would read every brand.
create index brands_brand_key on brands (brand_key) where brand_key is not null;
