-- Why: a re-crawl of an unchanged publisher downloaded, parsed, validated and diffed its whole file
-- to learn nothing. The crawler keeps what the server said identifies the document it applied (its
-- ETag and Last-Modified, the address that answered them, and the document's hash) and asks again
-- conditionally; a 304 skips the download, the parse and the diff. Null when the last fetch found
-- no document, or the server gave no validators.
alter table manifest_fetches add column validators jsonb;
