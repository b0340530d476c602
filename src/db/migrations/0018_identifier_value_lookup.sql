-- Why: an operator's brand.json names properties by identifier alone (lowercased), and applying it
-- finds the catalog properties those declarations reach; without this, each brand.json crawl
-- would scan every identifier.
create index property_identifiers_lower_value on property_identifiers (lower(identifier_value));
