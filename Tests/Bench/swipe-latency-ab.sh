#!/usr/bin/env bash
# Swipe decoding latency of two lexiforge binaries, side by side: each pair of runs decodes the
# same traces with both binaries at once, one pinned to each core, and the next pair swaps the
# cores. On a shared machine the noise moves both runs of a pair alike, so pairs compare where
# runs a minute apart do not (docs/swipe.md, *Latency under load*). Also checks that both print
# the same accuracy figures, as a speed-up that keeps the decodes must.
#
#   Tests/Bench/swipe-latency-ab.sh OLD NEW [TRACES] [PAIRS]
#
# OLD, NEW: lexiforge binaries (say a copy of .build/release/lexiforge built at another commit).
# TRACES: a trace file (default: every fifth of the development set's 20,000 real swipes).
# PAIRS: pairs of runs (default 4: two on each core assignment).
# Prints each pair's `cpu ms` p50 and p99 and the mean p50 of each binary. Needs two cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=$1 NEW=$2
PAIRS=${4:-4}
STORE=Artifacts/en_US-keyboard.sqlite
[ -x "$OLD" ] && [ -x "$NEW" ] || { echo "error: OLD and NEW must be lexiforge binaries (got $OLD, $NEW)" >&2; exit 2; }
[ -f "$STORE" ] || { echo "error: $STORE is missing; run make train first" >&2; exit 2; }
[ "$(nproc)" -ge 2 ] || { echo "error: this comparison needs two cores, one per binary" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TRACES=${3:-}
if [ -z "$TRACES" ]; then
  REAL=Corpora/data/swipe/hws-dev-20000.jsonl.gz
  [ -f "$REAL" ] || { echo "error: $REAL is absent (make corpora provisions it); pass a trace file" >&2; exit 2; }
  TRACES=$WORK/every-fifth.jsonl
  zcat "$REAL" | awk 'NR % 5 == 0' > "$TRACES"
fi
# figure NAME FILE: the value after NAME on FILE's `cpu ms` line.
figure() { grep '^cpu ms' "$2" | awk -v name="$1" '{ for (i = 1; i < NF; i++) if ($i == name) print $(i + 1) }'; }
for ((pair = 0; pair < PAIRS; pair++)); do
  old_core=$((pair % 2)) new_core=$((1 - pair % 2))
  taskset -c "$old_core" "$OLD" eval swipe "$STORE" --traces "$TRACES" --misses 0 > "$WORK/old.txt" 2>&1 &
  old_pid=$!
  taskset -c "$new_core" "$NEW" eval swipe "$STORE" --traces "$TRACES" --misses 0 > "$WORK/new.txt" 2>&1 || { cat "$WORK/new.txt" >&2; exit 1; }
  wait "$old_pid" || { cat "$WORK/old.txt" >&2; exit 1; }
  if ! diff <(grep -v -e ' ms' -e '^dictionary load' "$WORK/old.txt") <(grep -v -e ' ms' -e '^dictionary load' "$WORK/new.txt") > "$WORK/diff.txt"; then
    echo "warning: the two binaries' accuracy figures differ:" >&2
    cat "$WORK/diff.txt" >&2
  fi
  old_p50=$(figure p50 "$WORK/old.txt") old_p99=$(figure p99 "$WORK/old.txt")
  new_p50=$(figure p50 "$WORK/new.txt") new_p99=$(figure p99 "$WORK/new.txt")
  echo "old $old_p50" >> "$WORK/p50.txt"; echo "new $new_p50" >> "$WORK/p50.txt"
  echo "pair $((pair + 1)): OLD on core $old_core p50 $old_p50 p99 $old_p99 ms; NEW on core $new_core p50 $new_p50 p99 $new_p99 ms"
done
awk '{ s[$1] += $2; n[$1] += 1 }
     END { printf "mean p50: OLD %.2f ms, NEW %.2f ms (NEW / OLD %.3f) over %d pairs\n", s["old"] / n["old"], s["new"] / n["new"], (s["new"] / n["new"]) / (s["old"] / n["old"]), n["new"] }' "$WORK/p50.txt"
