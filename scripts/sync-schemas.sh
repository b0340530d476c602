#!/usr/bin/env bash
# Re-vendors the protocol's published JSON Schemas from ../shared/schemas into ./schemas, so the
# server never reads outside its checkout. Run it after ../shared/schemas changes; a test fails
# while the two copies differ.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source_dir="$root/../shared/schemas"
target_dir="$root/schemas"

if [ ! -d "$source_dir" ]; then
  echo "sync-schemas: $source_dir not found; nothing to copy" >&2
  exit 1
fi

# Replace rather than merge, so schemas removed upstream disappear here too.
staging="$(mktemp -d "$root/.schemas.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
cp -R "$source_dir/." "$staging/"
# The shared copy is read-only; the vendored one must stay editable by git and by the next sync.
chmod -R u+w,go-w,a+rX "$staging"
rm -rf "$target_dir"
mv "$staging" "$target_dir"
trap - EXIT
echo "sync-schemas: copied $(find "$target_dir" -type f | wc -l) files into $target_dir"
