#!/usr/bin/env bash
# The text-classifier and language-ID section of `make bench` (issue 19).
# Targets: sentiment 10-fold cross-validation accuracy on polarity-train >= 89.5% (published:
# Pang & Lee 2004 87.2%, NB-SVM 89.45%; quoted in the issue on the held-out folds: multinomial NB
# 83-86%, logistic regression 88.3-88.5%), training < 5 s, >= 5,000 reviews/s on one core.
# Language ID on langid-dev restricted to the 16 languages: >= 99.5% overall, >= 93% on the first
# 20 characters (langid.py restricted, quoted: 98.6% and 89.0%; unrestricted 96.8%),
# >= 100,000 sentences/s on one core (langid.py 3,500, quoted), store <= 5 MB.
# langid-dev is the development set: measured here with a model trained on langid-train alone (settings
# were chosen on that and on cross-validation; the shipped store trains on both, so the dev halves line
# estimates it: each half read by a model trained on train + the other half); the held-out test is elsewhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.build/release/lexiforge}
REPORT=${REPORT:-/dev/null}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
. Tests/Bench/lib.sh   # say, ratio, best_of_3
POLARITY="$SHARED_DATA/sentiment/polarity-train"
TRAIN="$SHARED_DATA/langid/langid-train.tsv.gz"
DEV="$SHARED_DATA/langid/langid-dev.tsv.gz"

say ""
say "## Text classifier: sentiment, polarity-train (1,600 reviews, folds cv000-cv799)"
if [ ! -d "$POLARITY" ]; then
  say "skipped: $POLARITY is absent (set SHARED_DATA)"
else
  taskset -c 0 "$BIN" classify train "$POLARITY" -o "$WORK/sentiment.sqlite" --folds 10 --quiet >"$WORK/train.out"
  say "lexiforge classify train polarity-train --folds 10 (defaults: NB-SVM, word 1-2-grams, binary, negation scope, n-grams of the last 15 lines, alpha 2, C 0.2):"
  sed 's/^/  /' "$WORK/train.out" | tee -a "$REPORT"
  say "  (target: 10-fold CV >= 89.50%; training < 5 s = 'features' (reading, tokenizing) + 'training' (the final fit) above, wall clock)"
  /usr/bin/time -f "%U %S" -o "$WORK/cpu" taskset -c 0 "$BIN" classify train "$POLARITY" -o "$WORK/cpu.sqlite" --folds 2 --quiet >/dev/null
  say "  CPU seconds of a whole classify train with the smallest cross-validation (--folds 2): $(awk '{print $1 + $2}' "$WORK/cpu")"
  taskset -c 0 "$BIN" eval classify "$WORK/sentiment.sqlite" "$POLARITY" >"$WORK/eval.out"
  say "classifying speed, one core (the 1,600 training reviews, tokenizing included): $(sed -n 's/^speed: //p' "$WORK/eval.out") (target >= 5000)"
  for algorithm in nb logistic; do
    taskset -c 0 "$BIN" classify train "$POLARITY" -o "$WORK/$algorithm.sqlite" --algorithm $algorithm --folds 10 --quiet >"$WORK/$algorithm.out"
    say "  --algorithm $algorithm: $(sed -n 's/^10-fold cross-validation accuracy ([a-z]*): \([0-9.]*%\).*/\1/p' "$WORK/$algorithm.out") 10-fold CV"
  done
  EWT="$SHARED_DATA/ud/en_ewt-ud-train.conllu.gz"
  if [ -f "$EWT" ] && [ -f /usr/share/wordnet/index.noun ]; then
    # Lemma features (the issue's "optionally lemmas"): the lemmatizer learnt from EWT train and WordNet.
    taskset -c 0 "$BIN" classify train "$POLARITY" -o "$WORK/lemmas.sqlite" --lemmas --lemma-training "$EWT" --folds 10 --quiet >"$WORK/lemmas.out"
    taskset -c 0 "$BIN" eval classify "$WORK/lemmas.sqlite" "$POLARITY" >"$WORK/lemmas-eval.out"
    say "  --lemmas (EWT train + WordNet lemmatizer): $(sed -n 's/^10-fold cross-validation accuracy ([a-z]*): \([0-9.]*%\).*/\1/p' "$WORK/lemmas.out") 10-fold CV; speed $(sed -n 's/^speed: //p' "$WORK/lemmas-eval.out")"
  else
    say "  --lemmas: skipped ($EWT or WordNet absent)"
  fi
fi

say ""
say "## Language identification: langid-train -> langid-dev (16 languages, development set)"
if [ ! -f "$TRAIN" ] || [ ! -f "$DEV" ]; then
  say "skipped: $TRAIN or $DEV is absent (set SHARED_DATA)"
else
  /usr/bin/time -f "%e %M" -o "$WORK/time" taskset -c 0 "$BIN" langid train "$TRAIN" -o "$WORK/langid.sqlite" --cross-validate 5 --quiet >"$WORK/langid-train.out"
  say "lexiforge langid train langid-train.tsv.gz --cross-validate 5 (defaults: logistic regression, 1-5-grams, 2^16 buckets):"
  sed 's/^/  /' "$WORK/langid-train.out" | tee -a "$REPORT"
  taskset -c 0 "$BIN" eval langid "$WORK/langid.sqlite" "$DEV" --timing-passes 5 >"$WORK/langid-eval.out"
  say "dev: $(sed -n 's/^accuracy //p' "$WORK/langid-eval.out") (target >= 99.5%)"
  say "dev, $(grep '^first 20 characters' "$WORK/langid-eval.out") (target >= 93%)"
  say "$(grep '^per language, first' "$WORK/langid-eval.out")"
  say "speed, one core: $(sed -n 's/^speed: //p' "$WORK/langid-eval.out") (target >= 100000; langid.py 3,500)"
  say "store: $(stat -c %s "$WORK/langid.sqlite") bytes (target <= 5,000,000)"
  say "per language (whole sentences):"
  sed -n '/^label/,/^confusion/p' "$WORK/langid-eval.out" | sed '$d' | sed 's/^/  /' | tee -a "$REPORT"
  # The shipped store also learns from dev. Its estimate: each half of dev (the first and the last
  # 150 sentences of each language) read by a model trained on train plus the other half.
  zcat -f "$TRAIN" > "$WORK/train.tsv"
  zcat -f "$DEV" | awk -F'\t' -v a="$WORK/devA.tsv" -v b="$WORK/devB.tsv" 'NF >= 2 { n[$1]++; print > (n[$1] <= 150 ? a : b) }'
  for half in A B; do
    other=$([ $half = A ] && echo B || echo A)
    "$BIN" langid train "$WORK/train.tsv" "$WORK/dev$half.tsv" -o "$WORK/half$half.sqlite" --quiet >/dev/null
    "$BIN" eval langid "$WORK/half$half.sqlite" "$WORK/dev$other.tsv" >"$WORK/half$other.out"
  done
  say "dev halves, each read by a model trained on train + the other half (the shipped model's setting): $(cat "$WORK/halfA.out" "$WORK/halfB.out" | awk '/^accuracy/ { gsub(/[(]/, ""); c += $3; t += $5 } /^first 20 characters: accuracy/ { gsub(/[(]/, ""); s += $6 } END { printf "%.2f%%, first 20 characters %.2f%% (%d of %d)", 100 * c / t, 100 * s / t, c, t }') (target >= 99.5% / 93%)"
fi
