#!/usr/bin/env bash
# `make fuzz`: runs each libFuzzer harness of Sources/LexiforgeFuzz for FUZZ_SECONDS, seeded from
# the test fixtures (stores and swipe traces built here with the CLI, nothing binary committed).
#
#   Tests/Fuzz/fuzz.sh FUZZ_BINARY CLI_BINARY [HARNESS...]
#
# Environment: FUZZ_SECONDS (per harness, default 60), FUZZ_DIR (default .fuzz): seeds in
# FUZZ_DIR/seeds/H (rebuilt every run), the growing corpus in FUZZ_DIR/corpus/H, crash, leak,
# timeout and out-of-memory inputs in FUZZ_DIR/crashes/H/. Exits 1 when any harness failed.
set -uo pipefail
bin=$(realpath "$1"); cli=$(realpath "$2"); shift 2
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(corpus wordlist conllu swipe model store tables playground)
seconds=${FUZZ_SECONDS:-60}
dir=${FUZZ_DIR:-.fuzz}
fx=Tests/LexiforgeTests/Fixtures

rm -rf "$dir/seeds"
mkdir -p "$dir/seeds"/{corpus,wordlist,conllu,swipe,model,store,tables,playground}
s=$dir/seeds
# put DEST FILE...: copies each fixture as FOLDER-NAME (fixtures of different folders share names).
put() { local dest=$1; shift; for f in "$@"; do cp "$f" "$s/$dest/$(basename "$(dirname "$f")")-$(basename "$f")"; done; }
put corpus "$fx"/*.txt "$fx"/*.gz "$fx"/binary.bin "$fx"/lm/*.txt
put wordlist "$fx"/wordlist/*.combined* "$fx"/swipe/tiny.combined
put conllu "$fx"/hmm/*.conllu "$fx"/text/*.conllu "$fx"/hmm/missing-slash.txt "$fx"/hmm/apple-products.json
put swipe "$fx"/swipe/bad-traces.jsonl
put model Corpora/*.model.json "$fx"/hmm/*.json "$fx"/swipe/abc-layout.json
put tables "$fx"/vocab/*.csv "$fx"/vocab/*.tsv "$fx"/ner/* "$fx"/classify/*.tsv
printf 'text,label\n"a great, moving film",pos\nboring and bad,neg\n' > "$s/tables/reviews.csv"
printf '{"text": "a great film", "label": "pos"}\n{"text": "dull", "label": "neg"}\n' > "$s/tables/reviews.jsonl"
# Built seeds: a failure here costs a seed, not the run.
seed() { "$@" >/dev/null 2>"$dir/seed.err" || { echo "fuzz: seed not built: $*" >&2; cat "$dir/seed.err" >&2; }; }
seed "$cli" swipe generate --words the,hello,world,quick -o "$s/swipe/generated.jsonl"
[ -f "$s/swipe/generated.jsonl" ] && gzip -c "$s/swipe/generated.jsonl" > "$s/swipe/generated.jsonl.gz"
seed "$cli" ngrams --order 3 -o "$s/store/ngrams.sqlite" "$fx/tiny.txt"
seed "$cli" wordlist import "$fx/wordlist/tiny.combined" -o "$s/store/lexicon.sqlite"
if [ -f "$s/store/lexicon.sqlite" ]; then
  cp "$s/store/lexicon.sqlite" "$s/store/swipe.sqlite"
  seed "$cli" swipe features "$s/store/swipe.sqlite" --layout qwerty
fi
seed "$cli" hmm --tagged "$fx/hmm/good.conllu" -o "$s/store/hmm.sqlite"
seed "$cli" classify train "$fx/classify/reviews" -o "$s/store/classifier.sqlite" --folds 3 --quiet
seed "$cli" langid train "$fx/classify/langid-tiny.tsv" -o "$s/store/langid.sqlite" --quiet
seed "$cli" ner train "$fx/ner/tiny.iob2" -o "$s/store/ner.sqlite" --epochs 2 --no-wordnet --quiet
seed "$cli" index "$fx/search/docs" -o "$s/store/search.sqlite" --quiet
seed "$cli" vocab import "$fx/vocab/tiny.csv" -o "$s/store/vocab.sqlite" --quiet
rm -f "$dir/seed.err"
# The playground harness serves the n-gram, swipe and tagger seed stores (read-only; libFuzzer
# writes new inputs to the first corpus folder only).
stores=()
for f in ngrams swipe hmm; do [ -f "$s/store/$f.sqlite" ] && stores+=("$(realpath "$s/store/$f.sqlite")"); done
export LEXIFORGE_FUZZ_STORES=$(IFS=:; echo "${stores[*]}")
p=$s/playground
printf 'GET /api/stores\n' > "$p/list"
printf 'GET /api/stores/1/layout\n' > "$p/layout"
printf 'POST /api/stores/0/predict\n{"text": "the dog", "limit": 3}' > "$p/predict"
printf 'POST /api/stores/1/swipe\n{"points": [{"x": 0.5, "y": 0.5}, {"x": 2.5, "y": 0.6}, {"x": 4.4, "y": 1.5}], "times": [0, 40, 90], "text": "hello ", "limit": 4}' > "$p/swipe"
printf 'POST /api/stores/2/tag\n{"text": "The dogs ran."}' > "$p/tag"

failed=()
for h in "${harnesses[@]}"; do
  mkdir -p "$dir/corpus/$h" "$dir/crashes/$h"
  echo "fuzz: $h for ${seconds}s (crashes go to $dir/crashes/$h/)" >&2
  # detect_leaks=0 (libFuzzer and ASAN_OPTIONS): under FUZZ_SANITIZE=fuzzer,address, LeakSanitizer reports 4 KB that
  # Foundation's FileManager.contents(atPath:) (readBytesFromFile) leaks reading an empty file
  # (swift-6.3.1), which the model harness reaches first; not ours, and it would end every ASan run.
  # SWIFT_BACKTRACE=enable=no: Swift's own crash handler would take a fatal error's SIGILL and exit
  # before libFuzzer's handler writes the input to crashes/ (seen: a Dictionary's duplicate key).
  SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no} ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} LEXIFORGE_FUZZ_HARNESS=$h "$bin" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -detect_leaks=0 \
    -print_final_stats=1 -artifact_prefix="$dir/crashes/$h/" "$dir/corpus/$h" "$s/$h" \
    > "$dir/$h.log" 2>&1
  status=$?
  grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$dir/$h.log" | tail -2 >&2
  if [ $status -ne 0 ]; then
    failed+=("$h")
    echo "fuzz: $h FAILED (exit $status); log $dir/$h.log, input in $dir/crashes/$h/:" >&2
    grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$dir/$h.log" | head -5 >&2
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}; inputs in $dir/crashes/" >&2
  exit 1
fi
echo "fuzz: ${#harnesses[@]} harness(es), ${seconds}s each, no crash" >&2
