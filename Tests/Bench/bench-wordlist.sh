#!/usr/bin/env bash
# Wordlist part of `make bench` (called by bench.sh; runs alone too): import and export speed of
# the en_US list, the lexicon's bytes per table (dbstat), prefix-completion latency.
# Anchor (quoted from issue 6, not installable here): Android's dicttool compiles the same list
# into its 1,042,559-byte binary .dict in about 2.6 s.
# Targets: import < 1 s, export < 1 s, lexicon part (words, frequencies, flags, prefix index) <= 3 MB, completion p50 < 50 us, p99 < 1 ms.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${BIN:-.build/release/lexiforge}"
OUT=Artifacts/bench
mkdir -p "$OUT"
REPORT="${REPORT:-$OUT/report.txt}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
. Tests/Bench/lib.sh   # say, ratio, best_of_3
LIST=Corpora/data/wordlists/en_US_wordlist.combined.gz
say ""
say "## Wordlist: $LIST (160,715 words)"
best_of_3 "$BIN" wordlist import "$LIST" -o "$WORK/en_US.sqlite" --quiet
say "import: ${BEST} s (best of 3; target < 1 s; dicttool compiles it to .dict in 2.6 s, quoted)"
best_of_3 "$BIN" wordlist export "$WORK/en_US.sqlite" -o "$WORK/en_US.combined.gz" --quiet
say "export: ${BEST} s (best of 3; target < 1 s)"
if cmp -s <(zcat "$WORK/en_US.combined.gz") <(zcat "$LIST"); then say "round trip: byte-identical"; else say "round trip: DIFFERS"; exit 1; fi
say "store: $(stat -c %s "$WORK/en_US.sqlite") bytes; per table (dbstat):"
sqlite3 "$WORK/en_US.sqlite" "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC" | while IFS='|' read -r name bytes; do say "  $name $bytes"; done
# The issue-6 target counts the words: the shared vocabulary (word_block, word_order, word_count), the lexicon's
# frequencies and flags, and the prefix index (folded keys, hot-prefix completions, f -> p scale).
# Not counted: the verbatim extras kept for the round trip (lexicon_key/Shortcut/Bigram/ChildLine/Header).
target_tables="'word_block', 'word_order', 'word_count', 'lexicon_frequency', 'lexicon_detail', 'lexicon_folded', 'lexicon_prefix', 'lexicon_scale'"
lex=$(sqlite3 "$WORK/en_US.sqlite" "SELECT SUM(pgsize) FROM dbstat WHERE name IN ($target_tables)")
extras=$(sqlite3 "$WORK/en_US.sqlite" "SELECT coalesce(SUM(pgsize), 0) FROM dbstat WHERE name LIKE 'lexicon%' AND name NOT IN ($target_tables)")
verdict=$([ "$lex" -le 3000000 ] && echo "meets" || echo "MISSES")
say "lexicon part (words + frequencies + flags + prefix index: $target_tables): $lex bytes, $verdict the target <= 3,000,000; round-trip extras: $extras bytes; anchor: dicttool .dict 1,042,559 bytes (quoted)"
say "completion: $("$BIN" bench-complete "$WORK/en_US.sqlite") (target p50 < 50 us, p99 < 1 ms)"
