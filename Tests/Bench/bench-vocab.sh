#!/usr/bin/env bash
# Vocabulary part of `make bench` (called by bench.sh; runs alone too), issue 18: import time and
# size of the five JLPT lists, count/random latency over random predicates with first (uncached)
# queries included, the SQL statements the seed's seven tests need, and the same on a generated
# 1,000,000-entry vocabulary.
# Targets: import of the five lists (8,131 rows) < 0.5 s; store <= 1 MB; random p99 < 100 us,
# count p99 < 200 us (first queries included); the seven tests <= 2 distinct SQL statements;
# 1,000,000 entries: random p99 < 200 us.
# Anchor (the seed, quoted): Core Data froze "for a couple of seconds" on a random pick over ~5,000 rows.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${BIN:-.build/release/lexiforge}"
OUT=Artifacts/bench
mkdir -p "$OUT"
REPORT="${REPORT:-$OUT/report.txt}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
. Tests/Bench/lib.sh   # say, ratio, best_of_3
verdict() { python3 -c "import sys; print('meets' if $1 else 'MISSES')"; }
D=Corpora/data/vocab/jlpt
LISTS=("$D/n5.csv" "$D/n4.csv" "$D/n3.csv" "$D/n2.csv" "$D/n1.csv")
say ""
say "## Vocabulary (issue 18): the five JLPT lists ($D/n5.csv ... n1.csv, 8,131 rows)"
best_of_3 "$BIN" vocab import "${LISTS[@]}" -o "$WORK/jlpt.sqlite" --quiet
say "import: ${BEST} s (best of 3; target < 0.5 s: $(verdict "$BEST < 0.5"))"
size=$(stat -c %s "$WORK/jlpt.sqlite")
say "store: $size bytes (target <= 1,048,576: $(verdict "$size <= 1048576")); entries $(sqlite3 "$WORK/jlpt.sqlite" "SELECT value FROM meta WHERE key = 'vocab_entries'"), buckets $(sqlite3 "$WORK/jlpt.sqlite" "SELECT count(*) FROM vocab_bucket")"
"$BIN" vocab import "${LISTS[@]}" -o "$WORK/jlpt2.sqlite" --quiet
if cmp -s "$WORK/jlpt.sqlite" "$WORK/jlpt2.sqlite"; then say "rebuild: byte-identical"; else say "rebuild: DIFFERS"; exit 1; fi
"$BIN" vocab bench "$WORK/jlpt.sqlite" --predicates 1000 --per-predicate 20 | tee "$WORK/bench.txt" | while read -r line; do say "$line"; done
say "(targets: random p99 < 100 us, count p99 < 200 us, first queries included; the seven tests <= 2 SQL statements)"

say ""
say "## Vocabulary: a generated 1,000,000-entry list (JLPT characters, 1-2 levels each, seeded)"
python3 - "$WORK/million.tsv" <<'PY'
import random, sys
random.seed(18)
kanji = [chr(c) for c in range(0x4E00, 0x4E00 + 2000)]
hira = [chr(c) for c in range(0x3041, 0x3094)]
kata = [chr(c) for c in range(0x30A1, 0x30F5)]
levels = ["N1", "N2", "N3", "N4", "N5"]
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("expression\treading\tmeaning\ttags\n")
    for i in range(1_000_000):
        kind = random.random()
        if kind < 0.1:
            word = "".join(random.choices(kata, k=random.randint(2, 6)))
        elif kind < 0.2:
            word = "".join(random.choices(hira, k=random.randint(2, 5)))
        elif kind < 0.7:
            word = "".join(random.choices(kanji, k=random.randint(1, 3)))
        else:
            word = "".join(random.choices(kanji, k=random.randint(1, 2))) + "".join(random.choices(hira, k=random.randint(1, 3)))
        reading = "" if random.random() < 0.003 else "".join(random.choices(hira, k=random.randint(2, 6)))
        tags = " ".join("JLPT_" + l for l in sorted(set(random.choices(levels, k=random.choice([1, 1, 2])))))
        f.write(f"{word}\t{reading}\tmeaning {i}\t{tags}\n")
PY
best_of_3 "$BIN" vocab import "$WORK/million.tsv" -o "$WORK/million.sqlite" --quiet
say "import: ${BEST} s (best of 3); store: $(stat -c %s "$WORK/million.sqlite") bytes, buckets $(sqlite3 "$WORK/million.sqlite" "SELECT count(*) FROM vocab_bucket")"
"$BIN" vocab bench "$WORK/million.sqlite" --predicates 1000 --per-predicate 20 | while read -r line; do say "$line"; done
say "(target: random p99 < 200 us, first queries included)"
