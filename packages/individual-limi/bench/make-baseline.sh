#!/bin/sh
# Builds LIMI and the linear SVM of @fb/models as they were at a commit (default HEAD) into
# bench/baseline/index.js, for `BASELINE=bench/baseline node bench/article-cell.mjs` to run beside the
# working build. The baseline bundles its own copy of @fb/models' sources; @fb/core and @fb/tensorflow
# come from the workspace.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
commit=${1:-HEAD}
out="$here/baseline"
rm -rf "$out"
mkdir -p "$out/src"
git -C "$root" archive "$commit" packages/individual-limi/src packages/models/src | tar -x -C "$out/src"
# The package's own sources import @fb/models by name: point them at the archived copy.
for f in "$out"/src/packages/individual-limi/src/*.ts; do
  sed -i "s#from '@fb/models'#from '../../models/src/index.js'#" "$f"
done
cp "$root/packages/individual-limi/package.json" "$out/src/packages/individual-limi/package.json"
cd "$root/packages/individual-limi"
"$root/node_modules/.bin/tsup" "$out/src/packages/individual-limi/src/index.ts" --format esm \
  --no-config --no-dts --out-dir "$out" --target node20 --external @fb/core --external @fb/tensorflow --silent
echo "baseline of $commit in $out"
