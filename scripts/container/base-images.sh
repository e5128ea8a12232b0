#!/usr/bin/env bash
# Makes the base images the container builds start from, where no image registry can be
# reached (this project's machines and CI reach only npm and Debian): debian:bookworm-slim's
# stand-in from Debian's own packages (debootstrap), and node:20-slim's from it plus this
# machine's Node.js 20, laid out as the official image lays it out (/usr/local, user `node`).
# Prints nothing but progress; the images stay in buildah's local storage for the next run.
set -euo pipefail
export STORAGE_DRIVER="${STORAGE_DRIVER:-vfs}" BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"

DEBIAN_BASE=localhost/parley-ci/debian:bookworm-slim
NODE_BASE=localhost/parley-ci/node:20-slim

has_image() { buildah inspect --type image "$1" >/dev/null 2>&1; }

if ! has_image "$DEBIAN_BASE"; then
  # The Debian mirror this machine's apt uses.
  mirror="$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n 1)"
  [ -n "$mirror" ] || mirror="$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | head -n 1)"
  [ -n "$mirror" ] || { echo "no Debian mirror in /etc/apt: cannot make $DEBIAN_BASE" >&2; exit 1; }
  echo "making $DEBIAN_BASE (debootstrap bookworm)"
  ctr="$(buildah from scratch)"
  root="$(buildah mount "$ctr")"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
  buildah umount "$ctr" >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd bash "$ctr"
  buildah commit --rm --quiet "$ctr" "$DEBIAN_BASE" >/dev/null
fi

if ! has_image "$NODE_BASE"; then
  node_bin="$(command -v node)"
  case "$("$node_bin" --version)" in v20.*) ;; *) echo "node:20-slim's stand-in needs Node.js 20 here" >&2; exit 1 ;; esac
  npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  headers="$(dirname "$(dirname "$node_bin")")/include/node"
  [ -f "$headers/node.h" ] || { echo "no Node.js headers at $headers" >&2; exit 1; }
  echo "making $NODE_BASE (Node.js $("$node_bin" --version) from this machine)"
  ctr="$(buildah from "$DEBIAN_BASE")"
  root="$(buildah mount "$ctr")"
  install -D -m 0755 "$node_bin" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules" "$root/usr/local/include"
  cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
  cp -a "$headers" "$root/usr/local/include/node"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  buildah umount "$ctr" >/dev/null
  buildah run "$ctr" -- sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
  buildah config --env NODE_VERSION="$("$node_bin" --version | cut -c2-)" --cmd node "$ctr"
  buildah commit --rm --quiet "$ctr" "$NODE_BASE" >/dev/null
fi
echo "base images: $DEBIAN_BASE $NODE_BASE"
