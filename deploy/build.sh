#!/bin/sh
# The build of a Greensen release, the same commands in the container image (deploy/Dockerfile), on a server
# without containers (docs/deploy.md) and in CI (the topology step of `npm test` runs `assemble` and starts its
# two instances from the result):
#
#   deploy/build.sh                  install the dependencies and build (what `npm test` builds: scripts/build.mjs)
#   deploy/build.sh assemble <dir>   after a build: the runtime tree in <dir> (an empty or absent folder) — the
#                                    built server, shared package and web app, the migrations, the server's data
#                                    files, and the production dependencies only
#
# The runtime tree is started with `node apps/server/dist/main.js` from <dir> (it serves apps/web/dist beside it).
set -eu
cd "$(dirname "$0")/.."

if [ "$#" -eq 0 ]; then
  # scripts/build.mjs installs (npm install, following package-lock.json: see scripts/lib.mjs for why not
  # `npm ci`) when node_modules is missing or stale, then builds the server (tsc) and the web app (Vite).
  exec node scripts/build.mjs
fi

if [ "$1" != "assemble" ] || [ "$#" -ne 2 ]; then
  echo "usage: deploy/build.sh [assemble <dir>]" >&2
  exit 2
fi
out=$2
for f in apps/server/dist/main.js apps/server/dist/cli.js packages/shared/dist apps/web/dist/index.html; do
  if [ ! -e "$f" ]; then
    echo "deploy/build.sh assemble: $f is missing; run deploy/build.sh first" >&2
    exit 1
  fi
done
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "deploy/build.sh assemble: $out is not empty" >&2
  exit 1
fi
mkdir -p "$out/apps/server" "$out/apps/web" "$out/packages/shared"

# Hard links where the file system allows it (CI: fast, no copy of node_modules), else copies.
copy() { cp -al "$@" 2>/dev/null || cp -a "$@"; }

# Real copies of what npm rewrites (a hard link would let it change the build's own files).
cp package.json package-lock.json "$out/"
copy packages/shared/package.json packages/shared/dist "$out/packages/shared/"
copy apps/server/package.json apps/server/dist apps/server/drizzle "$out/apps/server/"
copy apps/web/dist "$out/apps/web/"
# The server's data files beside its sources (common passwords, ICD-10, medications, document models…): the
# modules read them at ../../../src/modules/… from dist.
(cd apps/server && find src -type f ! -name '*.ts' ! -name '*.tsx') | while read -r f; do
  mkdir -p "$out/apps/server/$(dirname "$f")"
  copy "apps/server/$f" "$out/apps/server/$f"
done
copy node_modules "$out/"
rm -f "$out/node_modules/.package-lock.json"
[ -f node_modules/.package-lock.json ] && cp node_modules/.package-lock.json "$out/node_modules/"
# The web app's package.json stays out: its dependencies (React, Mantine…) are only in its built files. The
# root's workspace list still names apps/web, so a stub keeps npm from complaining about a missing workspace.
printf '{ "name": "@greensen/web", "version": "0.0.0", "private": true }\n' > "$out/apps/web/package.json"
# Only the production dependencies of the server and the shared package stay (prune only removes files).
(cd "$out" && npm prune --omit=dev --no-audit --no-fund --loglevel=error)
# Workspace links point at the workspaces' folders, which are in the tree.
echo "Runtime tree assembled in $out ($(du -sh "$out" | cut -f1))."
