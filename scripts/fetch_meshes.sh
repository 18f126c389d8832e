#!/usr/bin/env bash
# Fetches real surface meshes (armadillo, bunny, ...) from Debian's libcgal-demo package into
# .cache/meshes/ at the repo root (git-ignored). Idempotent: does nothing if they are present.
# Usage: scripts/fetch_meshes.sh [--force]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/.cache/meshes"
# name:file inside data/meshes/ (the package names some of them differently).
wanted=(armadillo:armadillo.off bunny:bunny00.off elephant:elephant.off camel:camel.off
        dragon:ChineseDragon-10kv.off hand:hand.off)
stamp="$dest/.fetched"  # names written by the last successful run

up_to_date() {
  [[ -s "$stamp" ]] || return 1
  while read -r name; do
    [[ -s "$dest/$name.off" ]] || return 1
  done <"$stamp"
}

if [[ "${1:-}" != "--force" ]] && up_to_date; then
  echo "meshes already in $dest:"
  ls -1 "$dest"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

if ! apt-get download libcgal-demo >/dev/null 2>&1; then
  echo "apt-get download failed; updating the package lists first" >&2
  if [[ "$(id -u)" -eq 0 ]]; then apt-get update >/dev/null; else sudo -n apt-get update >/dev/null; fi
  apt-get download libcgal-demo
fi
deb="$(ls libcgal-demo_*.deb)"
dpkg-deb -x "$deb" pkg

# The demo data ships as a tarball somewhere under usr/share/doc/libcgal-dev.
archive="$(find pkg/usr/share/doc -name 'data.tar.*' | head -n 1)"
if [[ -z "$archive" ]]; then
  echo "error: no data.tar.* found in $deb under usr/share/doc" >&2
  exit 1
fi

mkdir -p data
tar -xf "$archive" -C data
mkdir -p "$dest"
found=()
for entry in "${wanted[@]}"; do
  name="${entry%%:*}"
  file="$(find data -path "*/meshes/${entry#*:}" | head -n 1)"
  if [[ -n "$file" ]]; then
    cp "$file" "$dest/$name.off"
    found+=("$name")
  fi
done
if [[ "${#found[@]}" -eq 0 ]]; then
  echo "error: none of ${wanted[*]} found in $archive" >&2
  exit 1
fi
printf '%s\n' "${found[@]}" >"$stamp"
found=${#found[@]}
echo "fetched $found meshes into $dest:"
ls -1 "$dest"
