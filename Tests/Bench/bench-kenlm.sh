#!/usr/bin/env bash
# KenLM part of `make bench` (called by bench.sh; runs alone too): our language model against
# KenLM's own estimator, measured in the same run.
#
# KenLM's lmplz and build_binary are built from the `kenlm` source distribution on PyPI (the
# package whose Python module the tests already score ARPA files with), pinned below by URL and
# sha256, into Artifacts/bench/kenlm (git-ignored, kept between runs; nothing of KenLM is
# committed). Needs cmake, a C++ compiler and Boost (`make bench-deps`); without them this section
# says so and the bench goes on.
#
# On exactly the tokens our store counts (`lexiforge tokenize --sentences --drop-punctuation`, the
# same tokenizer and text options as `lexiforge ngrams`):
#   - the n-gram counts of both ARPA files (they must agree: same token stream);
#   - perplexity on held-out Alice of our ARPA and of lmplz's ARPA, both scored by KenLM's Python
#     module (issue 4: ours within 1% of lmplz's), and the largest difference of any shared
#     n-gram's log10 probability and backoff;
#   - time and peak memory of lmplz next to `lexiforge ngrams --language-model` (lmplz reads the
#     tokens; we read the gzipped book text and tokenize it ourselves), on gutenberg-11m and, when
#     present, gutenberg-100m; and the size of KenLM's trie binary of the 11m model.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.build/release/lexiforge}
REPORT=${REPORT:-Artifacts/bench/report.txt}
KENLM=${KENLM_DIR:-Artifacts/bench/kenlm}
SDIST_URL=https://files.pythonhosted.org/packages/02/6e/f4e159cef39ea4ef2244b4aa32857d447d60a5d0ee269e1b1f8d3723c03e/kenlm-0.3.0.tar.gz
SDIST_SHA256=c4628bb9fb63c8a6f9240035b8b037385cfc404cb72e933cf48878291edac1e8
mkdir -p "$(dirname "$REPORT")"
. Tests/Bench/lib.sh   # say, ratio, best_of_3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
G11="$SHARED_DATA/corpora/gutenberg-11m.txt.gz"
G100="$SHARED_DATA/corpora/gutenberg-100m.txt.gz"
HELD="$SHARED_DATA/corpora/alice-pg11-body.txt"
say ""
say "## KenLM's lmplz on the same tokens (built now from PyPI's kenlm 0.3.0 source distribution)"
if [ ! -f "$G11" ] || [ ! -f "$HELD" ]; then say "skipped: $G11 or $HELD is absent"; exit 0; fi
if ! python3 -c 'import kenlm' 2>/dev/null; then say "skipped: the kenlm Python module is missing (python3 -m pip install kenlm)"; exit 0; fi
if [ ! -x "$KENLM/build/bin/lmplz" ] || [ ! -x "$KENLM/build/bin/build_binary" ]; then
  if ! command -v cmake >/dev/null || [ ! -f /usr/include/boost/program_options.hpp ]; then
    say "skipped: building lmplz needs cmake and Boost (make bench-deps installs them)"; exit 0
  fi
  mkdir -p "$KENLM"
  curl -fsSL -o "$KENLM/kenlm.tar.gz" "$SDIST_URL"
  got=$(sha256sum "$KENLM/kenlm.tar.gz" | cut -d' ' -f1)
  if [ "$got" != "$SDIST_SHA256" ]; then
    say "error: $SDIST_URL has sha256 $got, expected $SDIST_SHA256"; exit 1
  fi
  rm -rf "$KENLM/src" "$KENLM/build"; mkdir -p "$KENLM/src" "$KENLM/build"
  tar xzf "$KENLM/kenlm.tar.gz" -C "$KENLM/src" --strip-components=1
  echo "bench-kenlm: building lmplz and build_binary (a few minutes, once)" >&2
  (cd "$KENLM/build" && cmake ../src -DCMAKE_BUILD_TYPE=Release >"$WORK/cmake.log" 2>&1 \
     && make -j"$(nproc)" lmplz build_binary >"$WORK/make.log" 2>&1) \
    || { tail -20 "$WORK/cmake.log" "$WORK/make.log" >&2 2>/dev/null; say "error: building lmplz failed"; exit 1; }
fi
LMPLZ="$KENLM/build/bin/lmplz"; BUILD_BINARY="$KENLM/build/bin/build_binary"
# wall seconds and peak RSS (MB) of a command into TIME_S and RSS_MB
timed() {
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
  read -r TIME_S rss_kb <"$WORK/time"; RSS_MB=$((rss_kb / 1024))
}
"$BIN" tokenize --sentences --drop-punctuation "$G11" >"$WORK/g11.tok"
timed "$BIN" ngrams "$G11" -o "$WORK/ours.sqlite" --order 3 --language-model --quiet
ours_s=$TIME_S; ours_mb=$RSS_MB
timed sh -c "\"$LMPLZ\" -o 3 -S 2G -T \"$WORK\" <\"$WORK/g11.tok\" >\"$WORK/lmplz.arpa\""
lmplz_s=$TIME_S; lmplz_mb=$RSS_MB
"$BIN" export arpa "$WORK/ours.sqlite" -o "$WORK/ours.arpa"
counts() { sed -n '/^\\data\\/,/^$/p' "$1" | grep '^ngram' | tr '\n' ' '; }
if [ "$(counts "$WORK/ours.arpa")" = "$(counts "$WORK/lmplz.arpa")" ]; then
  say "gutenberg-11m, order 3: the same n-grams in both ARPA files: $(counts "$WORK/ours.arpa")"
else
  say "gutenberg-11m, order 3: n-gram counts DIFFER: ours $(counts "$WORK/ours.arpa"); lmplz $(counts "$WORK/lmplz.arpa")"
fi
"$BIN" eval perplexity "$WORK/ours.sqlite" "$HELD" --write-tokens "$WORK/held.tok" >"$WORK/ppl"
python3 - "$WORK/ours.arpa" "$WORK/lmplz.arpa" "$WORK/held.tok" "$(awk '$1 == "perplexity" {print $2}' "$WORK/ppl")" >"$WORK/compare" 2>/dev/null <<'PY'
import sys, kenlm
ours_arpa, lmplz_arpa, held, own = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
lines = [l.strip() for l in open(held, encoding="utf-8") if l.strip()]
def perplexity(path):
    m = kenlm.Model(path); total = 0.0; n = 0
    for l in lines:
        total += m.score(l, bos=True, eos=True); n += len(l.split()) + 1
    return 10 ** (-total / n)
def entries(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        order = 0
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("\\") and line.endswith("-grams:"):
                order = int(line[1:line.index("-")]); continue
            if order == 0 or not line or line.startswith("\\"): continue
            parts = line.split("\t")
            table[parts[1]] = (float(parts[0]), float(parts[2]) if len(parts) > 2 else 0.0)
    return table
a, b = entries(ours_arpa), entries(lmplz_arpa)
shared = a.keys() & b.keys()
dp = max(abs(a[k][0] - b[k][0]) for k in shared if a[k][0] > -99)
db = max(abs(a[k][1] - b[k][1]) for k in shared)
po, pl = perplexity(ours_arpa), perplexity(lmplz_arpa)
print(f"{own} {po:.4f} {pl:.4f} {100 * abs(po - pl) / pl:.4f} {len(shared)} {len(a)} {len(b)} {dp:.4f} {db:.4f}")
PY
read -r own po pl diff shared na nb dp db <"$WORK/compare"
verdict=$(python3 -c "print('met' if $diff <= 1.0 else 'NOT met')")
say "perplexity on $(basename "$HELD") (oov $(awk '$1 == "oov" {print $2}' "$WORK/ppl")): lexiforge eval $own; KenLM scoring our ARPA $po, KenLM scoring lmplz's ARPA $pl: difference ${diff}% (target <= 1%: $verdict)"
say "  n-grams in both files $shared of $na / $nb; largest |difference| of a log10 probability $dp, of a log10 backoff $db (we store log10 x 1000 as integers: rounding alone is up to 0.0005)"
say "  time and peak RSS: lexiforge ngrams --language-model (gzipped text in) ${ours_s} s, ${ours_mb} MB; lmplz -o 3 -S 2G (tokens in) ${lmplz_s} s, ${lmplz_mb} MB: ratio $(ratio "$ours_s" "$lmplz_s")"
"$BUILD_BINARY" trie "$WORK/lmplz.arpa" "$WORK/lmplz.trie" >/dev/null 2>&1
say "  KenLM trie binary of lmplz's model: $(stat -c %s "$WORK/lmplz.trie") bytes; our store $(stat -c %s "$WORK/ours.sqlite") bytes: ratio $(ratio "$(stat -c %s "$WORK/ours.sqlite")" "$(stat -c %s "$WORK/lmplz.trie")")"
if [ -f "$G100" ]; then
  rm -f "$WORK/g11.tok" "$WORK"/*.arpa "$WORK/ours.sqlite" "$WORK/lmplz.trie"
  "$BIN" tokenize --sentences --drop-punctuation "$G100" >"$WORK/g100.tok"
  # Three pairs, each lexiforge then lmplz back to back (this machine is noisy): every pair's
  # ratio, and the median of the three (issue 17's target: <= 1.0, both on every core).
  ratios=""; ours_all=""; lmplz_all=""
  for pair in 1 2 3; do
    timed "$BIN" ngrams "$G100" -o "$WORK/ours100.sqlite" --order 3 --language-model --quiet
    ours_s=$TIME_S; ours_mb=$RSS_MB; rm -f "$WORK/ours100.sqlite"
    timed sh -c "\"$LMPLZ\" -o 3 -S 4G -T \"$WORK\" <\"$WORK/g100.tok\" >\"$WORK/lmplz100.arpa\""
    ratios="$ratios $(ratio "$ours_s" "$TIME_S")"; ours_all="$ours_all $ours_s"; lmplz_all="$lmplz_all $TIME_S"
  done
  median=$(echo $ratios | tr ' ' '\n' | sort -n | sed -n 2p)
  say "gutenberg-100m, order 3, three pairs back to back: lexiforge ngrams --language-model (gzipped text in, $(nproc) threads) s:$ours_all (${ours_mb} MB); lmplz -o 3 -S 4G (tokens in) s:$lmplz_all (${RSS_MB} MB); ratios$ratios, median $median (issue 17: <= 1.0)"
fi
