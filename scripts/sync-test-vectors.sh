#!/usr/bin/env bash
# Re-vendors the RFC 9421 conformance vectors (their JSON files, not the prose) from
# ../shared/test-vectors into ./test/fixtures/test-vectors, so the signing tests run in any
# checkout. Run it after ../shared/test-vectors changes; a test fails while the copies differ.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source_dir="$root/../shared/test-vectors"
target_dir="$root/test/fixtures/test-vectors"

if [ ! -d "$source_dir" ]; then
  echo "sync-test-vectors: $source_dir not found; nothing to copy" >&2
  exit 1
fi

staging="$(mktemp -d "$root/.test-vectors.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
(cd "$source_dir" && find . -name '*.json' -print0 | while IFS= read -r -d '' file; do
  mkdir -p "$staging/$(dirname "$file")"
  cp "$file" "$staging/$file"
done)
chmod -R u+w,go-w,a+rX "$staging"
rm -rf "$target_dir"
mkdir -p "$(dirname "$target_dir")"
mv "$staging" "$target_dir"
trap - EXIT
echo "sync-test-vectors: copied $(find "$target_dir" -type f | wc -l) files into $target_dir"
