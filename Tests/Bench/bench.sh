#!/usr/bin/env bash
# `make bench`: speed, memory and size of Lexiforge against its anchors, measured in one run.
#
# Anchors measured here, in the same run: Presage's text2ngram (Debian `presage`).
# Anchors quoted from the issues (not installable here): KenLM lmplz -o 3 on gutenberg-11m
# 3.3 s / 1.2 GB; Tally's Trained.sqlite for chapter 1: 364,544 bytes.
# Results go to stdout and Artifacts/bench/report.txt. Needs ../shared/data (or SHARED_DATA)
# for the 11 MB corpus; the chapter-1 figures need only `make corpora`.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=.build/release/lexiforge
OUT=Artifacts/bench
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
REPORT="$OUT/report.txt"
: >"$REPORT"
say() { echo "$*" | tee -a "$REPORT"; }
# wall seconds and peak RSS (KB) of a command: sets WALL and RSS
measure() {
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
  read -r WALL RSS <"$WORK/time"
}
ratio() { python3 -c "print(f'{$1/$2:.3f}')"; }

CH1=Corpora/data/corpora/dorian-gray-ch1.txt
say "# Lexiforge benchmark, $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m))"
say ""
say "## Size: chapter 1 of Dorian Gray ($CH1)"
"$BIN" ngrams "$CH1" -o "$WORK/ch1-o2.sqlite" --order 2 --quiet
"$BIN" ngrams "$CH1" -o "$WORK/ch1-o3.sqlite" --order 3 --quiet
for n in 1 2 3; do text2ngram -n $n -l -a -f sqlite -o "$WORK/presage-ch1.db" "$CH1" >/dev/null 2>&1; done
o2=$(stat -c %s "$WORK/ch1-o2.sqlite"); o3=$(stat -c %s "$WORK/ch1-o3.sqlite"); p3=$(stat -c %s "$WORK/presage-ch1.db")
say "orders 1-2: $o2 bytes; Tally's Trained.sqlite 364544 bytes; ratio $(ratio "$o2" 364544) (budget 0.250)"
say "orders 1-3: $o3 bytes; text2ngram -n 1,2,3 (appended, -l) $p3 bytes (measured now); ratio $(ratio "$o3" "$p3") (budget 0.333)"

Tests/Bench/bench-hmm.sh | tee -a "$REPORT"
REPORT="$REPORT" Tests/Bench/bench-wordlist.sh
REPORT="$REPORT" Tests/Bench/bench-swipe.sh

G11="$SHARED_DATA/corpora/gutenberg-11m.txt.gz"
if [ ! -f "$G11" ]; then
  say ""
  say "## Speed: skipped, $G11 is absent (set SHARED_DATA to the folder holding corpora/gutenberg-11m.txt.gz)"
  exit 0
fi
say ""
say "## Speed and memory: gutenberg-11m (10.8 MB of Gutenberg books, gzipped input)"
best=""
for run in 1 2 3; do
  measure "$BIN" ngrams "$G11" -o "$WORK/g11.sqlite" --order 3 --quiet
  say "lexiforge ngrams --order 3, run $run: ${WALL} s, peak RSS $((RSS / 1024)) MB"
  if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $WALL < $best else 1)"; then best=$WALL; bestrss=$RSS; fi
done
size=$(stat -c %s "$WORK/g11.sqlite")
say "store: $size bytes"
zcat "$G11" >"$WORK/g11.txt"
start=$(date +%s.%N)
for n in 1 2 3; do
  measure text2ngram -n $n -l -a -f sqlite -o "$WORK/presage-g11.db" "$WORK/g11.txt"
  say "text2ngram -n $n (appended, plain-text input): ${WALL} s, peak RSS $((RSS / 1024)) MB"
done
end=$(date +%s.%N)
t2n=$(python3 -c "print(f'{$end - $start:.2f}')")
say "text2ngram -n 1,2,3 total: ${t2n} s; $(stat -c %s "$WORK/presage-g11.db") bytes"
say ""
say "## Ratios (best of 3 for lexiforge)"
say "lexiforge / KenLM lmplz -o 3 (3.3 s, quoted): $(ratio "$best" 3.3) (milestone <= 2.0)"
say "text2ngram / lexiforge (measured now): $(ratio "$t2n" "$best")x faster (target >= 10)"
say "peak RSS: $((bestrss / 1024)) MB (budget < 300 MB; lmplz 1.2 GB, text2ngram 375 MB quoted)"
