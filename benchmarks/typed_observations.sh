#!/bin/bash
# The bar of typed observations, as an experiment: for each game, rename one observation key in
# its TypedDict (observation.py) and in the state's writer, leave the readers alone, and run mypy
# on a copy of the tree. Every run must fail, naming the readers of the old key.
# Output of a run: benchmarks/results/typed_observations.txt
set -u
TREE=$(cd "$(dirname "$0")/.." && pwd)
COPY="${TMPDIR:-/tmp}/typed-observations"
run() {  # package key new-key writer-module
  rm -rf "$COPY" && mkdir -p "$COPY" && cp -r "$TREE/src" "$TREE/pyproject.toml" "$COPY/"
  sed -i "s/^    $2: /    $3: /" "$COPY/src/boneyard/games/$1/observation.py"
  sed -i "s/\"$2\": /\"$3\": /" "$COPY/src/boneyard/games/$1/$4"
  echo "== $1: observation key '$2' renamed to '$3' in observation.py and $4 only"
  (cd "$COPY" && "$TREE/.venv/bin/mypy" --config-file pyproject.toml 2>&1 | tail -6)
}
run bones supply supplies rules.py
run bondo_cones scores points rules.py
run obonto totals match_totals rules.py
run oyno supply stock duel.py
run oyno dealt dealt_bones puzzle.py
run bonbon marker collective_marker rules.py
run race total sum rules.py
