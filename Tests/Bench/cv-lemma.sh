#!/usr/bin/env bash
# Cross-validation on a CoNLL-U training treebank (EWT train by default), the only data lemmatizer
# and tagger choices are tuned on (dev is for reporting): five folds of whole documents (contiguous
# blocks of `# newdoc` documents, about equal in words); for each fold a UPOS tagger
# (`lexiforge hmm --tagged`) and a lemmatizer are trained on the other four and the fold's words are
# lemmatized with predicted tags (voted over the tagger's posteriors), with no tags and with gold
# tags; and with the tags of an averaged-perceptron tagger trained on the other four folds
# (`--tagger-train`, voted over its softmax posteriors), whose UPOS accuracy is pooled too.
# Prints each fold and the pooled accuracies.
# Usage: Tests/Bench/cv-lemma.sh [TRAIN.conllu.gz] [FOLDS]   (BIN, KEEP=DIR to keep the folds,
#   MODES="pred free gold perc upos" to run some only, PERC_ARGS="..." extra eval lemma options)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.build/release/lexiforge}
TRAIN=${1:-$SHARED_DATA/ud/en_ewt-ud-train.conllu.gz}
FOLDS=${2:-5}
DIR=${KEEP:-$(mktemp -d)}
mkdir -p "$DIR"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$DIR"' EXIT
python3 - "$TRAIN" "$FOLDS" "$DIR" <<'PY'
import gzip, sys
path, k, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
docs, cur = [], None
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt", encoding="utf-8") as f:
    for line in f:
        if line.startswith("# newdoc") or cur is None:
            cur = [[], 0]; docs.append(cur)
        cur[0].append(line)
        if line[:1].isdigit() and "\t" in line and "-" not in line.split("\t", 1)[0] and "." not in line.split("\t", 1)[0]:
            cur[1] += 1
total = sum(d[1] for d in docs)
folds, acc = [[] for _ in range(k)], 0
for d in docs:   # contiguous blocks of whole documents, split near equal word counts
    folds[min(k - 1, acc * k // total)].append(d); acc += d[1]
for i, fold in enumerate(folds):
    with open(f"{out}/fold{i}.conllu", "w", encoding="utf-8") as f:
        for d in fold: f.writelines(d[0])
    with open(f"{out}/rest{i}.conllu", "w", encoding="utf-8") as f:
        for j, other in enumerate(folds):
            if j != i:
                for d in other: f.writelines(d[0])
PY
pool() { [ -s "$1" ] && awk '{w += $2; c += $1} END {printf "%.4f%% (%d/%d)", 100 * c / w, c, w}' "$1" || printf "not run"; }
MODES=${MODES:-pred free gold perc upos}
read -r -a PERC <<<"${PERC_ARGS:-}"
: >"$DIR/pred" ; : >"$DIR/free"; : >"$DIR/gold"; : >"$DIR/perc"; : >"$DIR/upos"
for ((i = 0; i < FOLDS; i++)); do
  case " $MODES " in *" pred "*) [ -f "$DIR/tagger$i.sqlite" ] || "$BIN" hmm --quiet --tagged "$DIR/rest$i.conllu" -o "$DIR/tagger$i.sqlite";; esac
  for mode in $MODES; do
    case $mode in
      pred) extra=(--tagger "$DIR/tagger$i.sqlite");; free) extra=();; gold) extra=(--gold-tags);;
      perc) extra=(--tagger-train "$DIR/rest$i.conllu" "${PERC[@]}");;
      upos) line=$("$BIN" eval tag --tagger-train "$DIR/rest$i.conllu" "$DIR/fold$i.conllu" | sed -n 's/^accuracy: [0-9.]*% (\([0-9]*\)\/\([0-9]*\)).*/\1 \2/p')
            echo "$line" >>"$DIR/upos"; echo "fold $i upos (perceptron): $line"; continue;;
    esac
    line=$("$BIN" eval lemma "$DIR/fold$i.conllu" --train "$DIR/rest$i.conllu" "${extra[@]}" 2>/dev/null | sed -n 's/^accuracy: [0-9.]* (\([0-9]*\)\/\([0-9]*\)).*/\1 \2/p')
    echo "$line" >>"$DIR/$mode"
    echo "fold $i $mode: $line"
  done
done
echo "perceptron tagger ($FOLDS folds): UPOS $(pool "$DIR/upos"); lemmas with its predicted tags $(pool "$DIR/perc")"
echo "cross-validation ($FOLDS folds of documents): predicted tags $(pool "$DIR/pred"); no tags $(pool "$DIR/free"); gold tags $(pool "$DIR/gold")"
