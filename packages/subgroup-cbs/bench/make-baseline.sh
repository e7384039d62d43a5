#!/bin/sh
# Builds CBS with the scan and model code it ran on at a commit (@fb/subgroup-cbs, @fb/subset-scan and
# @fb/models sources of that commit, bundled together) into bench/baseline/index.js (or into the directory
# given second, under bench/), for `node bench/cells.mjs <seeds> <scanTypes> bench/baseline/index.js`,
# bench/target.mjs and bench/versus.mjs to time beside the working build. @fb/core comes from the workspace.
# Usage: make-baseline.sh <commit> [directory name under bench/, default baseline]
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
commit=${1:?usage: make-baseline.sh <commit> [directory]}
out="$here/${2:-baseline}"
rm -rf "$out"
mkdir -p "$out/src"
git -C "$root" archive "$commit" packages/subgroup-cbs/src packages/subset-scan/src packages/models/src \
  packages/subgroup-cbs/package.json packages/subset-scan/package.json packages/models/package.json |
  tar -x -C "$out/src"
# The package's sources import its siblings by name: point them at the archived copies.
for f in "$out"/src/packages/subgroup-cbs/src/*.ts "$out"/src/packages/subset-scan/src/*.ts; do
  sed -i "s#from '@fb/subset-scan'#from '../../subset-scan/src/index.js'#; s#from '@fb/models'#from '../../models/src/index.js'#" "$f"
done
cd "$root/packages/subgroup-cbs"
"$root/node_modules/.bin/tsup" "$out/src/packages/subgroup-cbs/src/index.ts" --format esm \
  --no-config --no-dts --out-dir "$out" --target node20 --external @fb/core --silent
git -C "$root" rev-parse "$commit" > "$out/COMMIT"
echo "baseline of $commit in $out"
