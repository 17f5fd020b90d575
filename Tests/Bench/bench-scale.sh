#!/usr/bin/env bash
# Scale part of `make bench` (issue 17; called by bench.sh, runs alone too): gutenberg-100m counted
# with one thread and with every core, as count shards merged, and on Apache Spark local[2]; every
# mode must give the same bytes. The lmplz comparison of the whole pipeline is bench-kenlm.sh's
# (`ngrams` there uses every core, as lmplz does).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.build/release/lexiforge}
REPORT=${REPORT:-Artifacts/bench/report.txt}
mkdir -p "$(dirname "$REPORT")"
. Tests/Bench/lib.sh   # say, ratio, best_of_3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
timed() {
  /usr/bin/time -f "%e %U %M" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || { tail -20 "$WORK/stderr" >&2; exit 1; }
  read -r TIME_S CPU_S rss_kb <"$WORK/time"; RSS_MB=$((rss_kb / 1024))
}
G100="$SHARED_DATA/corpora/gutenberg-100m.txt.gz"
say ""
say "## Scale: threads, count shards, Spark (gutenberg-100m, orders 1-3, --language-model)"
if [ ! -f "$G100" ]; then say "skipped: $G100 is absent"; exit 0; fi

# A model folder naming the corpus, as train and the Spark job take it.
mkdir -p "$WORK/model/data/corpora"
cp "$G100" "$WORK/model/data/corpora/gutenberg-100m.txt.gz"   # a copy: train refuses links out of data/
printf 'name\tfile\tsha256\tlicense\tsource\turl\ng100\tcorpora/gutenberg-100m.txt.gz\t%s\tPublic domain\tshared data\t-\n' \
  "$(sha256sum "$G100" | cut -d' ' -f1)" >"$WORK/model/manifest.tsv"
echo '{"name": "g100", "corpora": ["g100"], "order": 3, "language_model": true}' >"$WORK/model/g100.model.json"
MODEL="$WORK/model/g100.model.json"

timed "$BIN" train "$MODEL" -o "$WORK/t1.sqlite" --threads 1 --quiet
t1=$TIME_S; c1=$CPU_S; m1=$RSS_MB
timed "$BIN" train "$MODEL" -o "$WORK/tn.sqlite" --threads "$(nproc)" --quiet
tn=$TIME_S; cn=$CPU_S; mn=$RSS_MB
same() { cmp -s "$1" "$2" && echo "identical bytes" || echo "BYTES DIFFER"; }
say "train, 1 thread: ${t1} s wall, ${c1} s CPU, ${m1} MB peak RSS"
say "train, $(nproc) threads: ${tn} s wall, ${cn} s CPU, ${mn} MB peak RSS: speed-up $(ratio "$t1" "$tn"); $(same "$WORK/t1.sqlite" "$WORK/tn.sqlite")"
# The memory budget: counting spills sorted runs, estimation and writing stream over them.
for budget in 256M 128M; do
  timed "$BIN" train "$MODEL" -o "$WORK/m$budget.sqlite" --memory "$budget" --quiet
  say "train --memory $budget ($(nproc) threads): ${TIME_S} s wall, ${CPU_S} s CPU, ${RSS_MB} MB peak RSS; against the unbounded build ${tn} s: time ratio $(ratio "$TIME_S" "$tn") (targets for 256M: peak RSS <= 300 MB, ratio <= 1.5); $(same "$WORK/t1.sqlite" "$WORK/m$budget.sqlite")"
  rm -f "$WORK/m$budget.sqlite"
done
timed "$BIN" count --model "$MODEL" --part 0/2 -o "$WORK/p0.sqlite" --quiet
s0=$TIME_S
timed "$BIN" count --model "$MODEL" --part 1/2 -o "$WORK/p1.sqlite" --quiet
s1=$TIME_S
timed "$BIN" merge "$WORK/p0.sqlite" "$WORK/p1.sqlite" --model "$MODEL" -o "$WORK/merged.sqlite" --quiet
say "count --part 0/2 ${s0} s, 1/2 ${s1} s (each reads the whole file, counts half), merge --model ${TIME_S} s, ${RSS_MB} MB: $(same "$WORK/t1.sqlite" "$WORK/merged.sqlite")"
rm -f "$WORK"/p*.sqlite "$WORK/merged.sqlite"
if python3 -c 'import pyspark' 2>/dev/null && command -v java >/dev/null; then
  timed python3 Sources/spark/lexiforge_spark.py --binary "$BIN" --model "$MODEL" -o "$WORK/spark.sqlite" --master 'local[2]' --parts 4
  say "Spark local[2], 4 parts, merge tree, final estimation: ${TIME_S} s wall (JVM start included); one-machine train ${tn} s: ratio $(ratio "$TIME_S" "$tn"); $(same "$WORK/t1.sqlite" "$WORK/spark.sqlite")"
else
  say "Spark: skipped (pyspark or Java missing; make python-deps and make deps install them)"
fi
# A standalone cluster on this machine (a master and two one-core workers, each its own JVM;
# executors in processes of their own): the same job against a real master URL.
if python3 -c 'import pyspark' 2>/dev/null && command -v java >/dev/null; then
  export SPARK_CLUSTER_DIR="$WORK/cluster"
  if master=$(Sources/spark/standalone-cluster.sh start 2>"$WORK/cluster.err"); then
    timed python3 Sources/spark/lexiforge_spark.py --binary "$BIN" --model "$MODEL" -o "$WORK/cluster.sqlite" --master "$master" --parts 4
    say "Spark standalone cluster ($master, 2 workers of 1 core), 4 parts: ${TIME_S} s wall; $(same "$WORK/t1.sqlite" "$WORK/cluster.sqlite")"
  else
    say "Spark standalone cluster: could not start ($(tail -1 "$WORK/cluster.err"))"
  fi
  Sources/spark/standalone-cluster.sh stop
fi
