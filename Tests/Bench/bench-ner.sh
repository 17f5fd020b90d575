#!/usr/bin/env bash
# Named entities and lemma search (issue 20), part of `make bench` (called by bench.sh; runs alone too).
# Targets: exact-span micro F1 >= 80 on ner/en_ewt-ud-dev.iob2 by 5-fold cross-validation (each fold
# tagged by a model trained on the other four plus BTC train and dev), per type reported too;
# tagging >= 200,000 tokens per CPU second on one core; indexing the 1,600 reviews of the polarity
# set's train folds < 5 s; search queries p99 < 5 ms; recall of inflected forms 100% on the
# hand-made query set (Tests/LexiforgeTests/Fixtures/search).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${BIN:-.build/release/lexiforge}"
OUT=Artifacts/bench
mkdir -p "$OUT"
REPORT="${REPORT:-$OUT/report.txt}"
DATA=Corpora/data
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
. Tests/Bench/lib.sh   # say, ratio, best_of_3
verdict() { python3 -c "import sys; sys.exit(0 if $1 else 1)" && echo "meets" || echo "MISSES"; }
# BTC's update weight: 1 (0.5, or EWT weighted 2-4x, did no better in this cross-validation; docs/entities-and-search.md).
BTC_WEIGHT=${BTC_WEIGHT:-1}
UD_TRAIN=$DATA/ud/en_ewt-ud-train.conllu

# Unlabelled text for the word classes (EWT train's text, WikiText-2 valid, Gutenberg 11M and 100M),
# those present; the 40,000 most frequent words get one of 128 classes.
CLUSTER_TEXT=(--cluster-words 40000)
for f in "$UD_TRAIN" "$SHARED_DATA/corpora/wikitext-2/valid.txt.gz" "$SHARED_DATA/corpora/gutenberg-11m.txt.gz" \
         "$SHARED_DATA/corpora/gutenberg-100m.txt.gz"; do
  [ -f "$f" ] && CLUSTER_TEXT+=(--cluster-text "$f")
done

say ""
say "## Named entities: 5-fold cross-validation on UNER EWT dev (train: the other folds + BTC train and dev, weight $BTC_WEIGHT; UPOS tags from an HMM trained on EWT train; WordNet names; word classes from $(( ${#CLUSTER_TEXT[@]} / 2 - 1 )) unlabelled texts; document consistency)"
EWT=$DATA/ner/en_ewt-ud-dev.iob2
if [ ! -f "$EWT" ] || [ ! -f "$DATA/ner/btc.train" ] || [ ! -f "$UD_TRAIN" ]; then
  say "skipped: $EWT, $DATA/ner/btc.train or $UD_TRAIN is absent (make corpora)"
else
  nice -n 5 "$BIN" eval ner --folds 5 --train "$DATA/ner/btc.train=$BTC_WEIGHT" --train "$DATA/ner/btc.dev=$BTC_WEIGHT" \
    --upos-train "$UD_TRAIN" "${CLUSTER_TEXT[@]}" "$EWT" \
    >"$WORK/cv" 2>"$WORK/cv.err" || { cat "$WORK/cv.err" >&2; exit 1; }
  while IFS= read -r line; do say "  $line"; done <"$WORK/cv"
  f1=$(awk '$1 == "overall" {print $4}' "$WORK/cv")
  speed=$(awk '/tagging speed/ {print $3}' "$WORK/cv")
  say "micro F1 $f1 (target >= 80): $(verdict "$f1 >= 80")"
  say "tagging $speed tokens per CPU second, UPOS tagging, features and Viterbi, one core (target >= 200,000): $(verdict "$speed >= 200000")"
  # The folds tag 25,000 tokens in about a tenth of a second, so that figure wavers; a steadier one:
  # a store trained on all three files reads EWT dev ten times over (the mean per pass).
  "$BIN" ner train "$DATA/ner/btc.train" "$DATA/ner/btc.dev" "$EWT" --upos-train "$UD_TRAIN" "${CLUSTER_TEXT[@]}" \
    -o "$WORK/ner.sqlite" --quiet >/dev/null
  steady=$(taskset -c 0 "$BIN" eval ner "$WORK/ner.sqlite" "$EWT" --timing-passes 10 | awk '/tagging speed/ {print $3}')
  say "tagging, a store trained on all three files reading EWT dev 10 times: $steady tokens per CPU second (target >= 200,000): $(verdict "$steady >= 200000"); store $(stat -c %s "$WORK/ner.sqlite") bytes"
fi

say ""
say "## Lemma search: the polarity set's train folds (1,600 reviews)"
REVIEWS=$SHARED_DATA/sentiment/polarity-train
LEMMA=$UD_TRAIN
if [ ! -d "$REVIEWS" ] || [ ! -f "$LEMMA" ]; then
  say "skipped: $REVIEWS or $LEMMA is absent"
else
  # Lemmas voted over the perceptron UPOS tagger's posteriors (the default of the docs), then tag-free for comparison.
  for mode in tagged tag-free; do
    extra=(); [ "$mode" = tagged ] && extra=(--tagger-train "$LEMMA")
    /usr/bin/time -f "%e %M" -o "$WORK/time" nice -n 5 "$BIN" index "$REVIEWS" --lemma-training "$LEMMA" "${extra[@]}" -o "$WORK/reviews-$mode.sqlite" 2>"$WORK/index.err" \
      || { cat "$WORK/index.err" >&2; exit 1; }
    read -r wall rss <"$WORK/time"
    line=$(tail -1 "$WORK/index.err")
    say "$mode: $line"
    cpu=$(echo "$line" | sed -E 's/.*\(([0-9.]+) CPU s\).*/\1/')
    indexing=$(echo "$line" | sed -E 's/.*indexing ([0-9.]+) s.*/\1/')
    say "$mode: indexing (reading, tagging, lemmatizing, FTS5, writing) $cpu CPU s, $indexing s wall on the shared machine (target < 5 s): CPU $(verdict "$cpu < 5"), wall $(verdict "$indexing < 5"); the whole command with training: $wall s, peak RSS $((rss / 1024)) MB"
  done
  mv "$WORK/reviews-tagged.sqlite" "$WORK/reviews.sqlite"
  # 1,000 query words (every 13th distinct lowercase word of the reviews) and five more queries.
  cat "$REVIEWS"/*/*.txt | tr ' ' '\n' | grep -E '^[a-z]+$' | LC_ALL=C sort -u | awk 'NR % 13 == 0 && n < 1000 { print; n++ }' >"$WORK/queries"
  printf 'sing\nfunny movie\nbad acting\ngreat performance\nwalked out\n' >>"$WORK/queries"
  nice -n 5 "$BIN" eval search "$WORK/reviews.sqlite" "$WORK/queries" --passes 3 >"$WORK/latency"
  p99=$(grep '^query latency' "$WORK/latency" | sed -nE 's/.*p99 ([0-9.]+) ms.*/\1/p')
  cpu99=$(grep '^query CPU' "$WORK/latency" | sed -nE 's/.*p99 ([0-9.]+) ms.*/\1/p')
  say "$(grep '^query latency' "$WORK/latency") (target p99 < 5 ms): $(verdict "$p99 < 5")"
  say "$(grep '^query CPU' "$WORK/latency") (target p99 < 5 ms): $(verdict "$cpu99 < 5")"
  "$BIN" index Tests/LexiforgeTests/Fixtures/search/docs --lemma-training "$LEMMA" --tagger-train "$LEMMA" -o "$WORK/fixture.sqlite" --quiet
  "$BIN" eval search "$WORK/fixture.sqlite" Tests/LexiforgeTests/Fixtures/search/queries.tsv >"$WORK/recall" || true
  say "hand-made query set: $(grep '^recall' "$WORK/recall") (target 100%)"
  "$BIN" search "$WORK/reviews.sqlite" "sing" --limit 3 2>/dev/null | while IFS= read -r hit; do say "  sing: $hit"; done
fi
