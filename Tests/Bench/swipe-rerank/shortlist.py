"""The shortlist's own weights (SwipeDecoderOptions.shortlistSelection, Selection.shortlist, since
2026-11-30, thirty-first session):
python3 shortlist.py cv OUT.json | forests KIND FEATURE_FILE WEIGHTS.json|linear SELECT.json

The decoder's cheap stage keeps the best 200 words (SwipeDecoderOptions.shortlist) by the linear
score's terms without the DTW: the location and shape channels, the start, end and length terms
and the priors. Until 2026-11-30 it weighed them by the linear score's weights, fitted for the
right word's rank with the DTW cost beside them; this fits weights of the same terms for the
word's recall among the best K (200), as selection.py does for the reranker's 64.

DUMP: the tuner's dump of a shortlist far wider than K (`swipe tune --wide-shortlist 500 --dump
FILE --dump-only`): the rows a reweighted cheap stage could bring into its best K. Words beyond
the dump's are not seen, so the recall is an estimate from above for weights far from the
ones that chose the dump's rows (since 2026-11-30 the shipped shortlist weights, before the
linear score's; the shipped weights were fitted on a dump chosen by the linear score's).

cv:      nested by user: each fold's weights fitted (models.fit_ca, coordinate ascent on the
         number of in-dictionary swipes whose word is among the best K, with and without a
         context) on the other folds' swipes, its recall measured on its own; writes the
         per-fold weights ("0" … "4") and those fitted on every fold ("all") to OUT.json.
forests: the decoder emulated on DUMP, fold by fold: each swipe's best K rows by the fold's
         cheap weights (or the linear score's, `linear`), their best 64 by the fold's selection
         weights (SELECT.json, selection.py cv), ranked by the fold's forests fitted as shipped
         (forest.py's MODEL_CACHE: DUMP_FIT and AUG name the forests' training dumps as forest.py
         cv's DUMP and AUG did); nested top-1 / top-4, the recall of both stages.
"""
import json, os, sys, time, numpy as np
from common import load, ranks
from models import DEF, subset, fit_ca, DENOM, top_k, acc_by_fold, regroup, nested_recall

K = int(os.environ.get("K", 200))
CHEAP = ["location", "shape", "start", "end", "length"]
START = dict(DEF, ctxfrequency=0.499, context=1.16, gate=-4, contextLow=0.41)   # the linear score's

def cheap(D, w, ctx):
    """The cheap stage's score of every row under the weights w, with a context or without."""
    s = -sum(w[t] * D[t] for t in CHEAP)
    if ctx:
        return s + w["ctxfrequency"] * D["lexicon"] + np.where(D["fit"] < w["gate"], w["contextLow"], w["context"]) * D["lm"]
    return s + w["frequency"] * D["lexicon"]

def counts(D, w):
    """Swipes whose word is among the best K with a context and without."""
    return np.array([(ranks(cheap(D, w, c), D) < K).sum() for c in (True, False)])

def fit(D):
    return fit_ca(D, START, None, paths=CHEAP + ["frequency", "ctxfrequency", "context", "contextLow"],
                  value_of=lambda D, w: counts(D, w).sum(), floor=0.05)

if __name__ == "__main__":
    mode = sys.argv[1]
    D = load(os.environ["DUMP"])
    total = sum(DENOM.values())
    t0 = time.time()
    if mode == "cv":
        out = nested_recall(D, fit, counts, START, K)
        out["all"] = fit(D)
        print("all folds:", ", ".join("%s %.4g" % (p, v) for p, v in out["all"].items()), flush=True)
        json.dump(out, open(sys.argv[2], "w"), indent=1)
    else:
        import feats
        kind, setf, weights, select = sys.argv[2], sys.argv[3], sys.argv[4], json.load(open(sys.argv[5]))
        os.environ["DUMP"] = os.environ["DUMP_FIT"]   # the forests' cache key: the dump they were fitted on
        import forest
        features = open(setf).read().strip().split(",")
        ctx = "ctx" in kind
        cheapw = None if weights == "linear" else json.load(open(weights))
        trees = forest.trees_for(kind)
        res, shortlisted, reranked, after = [], 0, 0, np.zeros(3)
        for k in sorted(DENOM):
            models = [forest.cached_forest(None, None, trees, seed, dict(kind=kind, setf=open(setf).read(), fold=k, drop="0"))
                      for seed in forest.seeds_for(kind)]
            Dk = subset(D, D["sfold"] == k)
            near = feats.grank(-cheap(Dk, cheapw[str(k)] if cheapw else START, ctx), Dk) < K
            E = regroup(Dk, near)
            shortlisted += E["hasTruth"].sum()
            DT, XT, _ = top_k(E, kind, forest.RERANK, features, select[str(k)])
            reranked += DT["hasTruth"].sum()
            s = sum(m.predict(XT, num_iteration=trees) for m in models) / len(models)
            res.append(acc_by_fold(s, DT, {k: DENOM[k]})[0])
            if ctx:   # after words that read like a sentence, as forest.py reports it
                fit_ = DT["fit"][DT["starts"]]; b = ranks(s, DT)[(fit_ >= -4) & (fit_ != 0)]
                after += [(b == 0).sum(), (b < 4).sum(), len(b)]
            print("fold", k, res[-1], "%.0fs" % (time.time() - t0), flush=True)
        print("RESULT %s %s, shortlist by %s: top1 %.2f top4 %.2f; the word among the best %d %.2f%%, among the best %d %.2f%%"
              % (kind, setf, weights, *(np.mean(res, 0) * 100), K, 100 * shortlisted / total, forest.RERANK, 100 * reranked / total)
              + ("; after words that read like a sentence: top1 %.2f top4 %.2f" % (100 * after[0] / after[2], 100 * after[1] / after[2]) if ctx else ""),
              flush=True)
