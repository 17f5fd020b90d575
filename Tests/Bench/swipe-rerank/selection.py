"""The reranker's candidates: python3 selection.py cv|fit [OUT.json].

The decoder reranks each swipe's best 64 shortlisted words (RERANK in forest.py), chosen by a
linear score. Its weights (SwipeDecoderOptions) were fitted for the right word's rank, and they
still choose the shortlist; the forests decide the rank, so the 64 are now chosen by weights of
the same terms fitted for the right word's recall among them (SwipeDecoderOptions.Selection).

One set of weights for both decoders, as the linear score has: the terms shared, the prior's
weight without a context (frequency) and beside one (ctxfrequency, context, contextLow below the
context gate) their own. Fitted by coordinate ascent (models.fit_ca) on the number of
in-dictionary swipes whose word is among the best 64, with and without a context (ties count
against the word; a thousandth of a swipe for each word in the top 4 breaks ties between
weights), starting from the linear score's weights.

cv:  nested by user: each fold's weights fitted on the other folds' swipes, its recall measured
     on its own; writes the per-fold weights ("0" … "4") and those fitted on every fold ("all")
     to OUT.json, which forest.py reads (TEST_SELECT: each fold's rows chosen by its weights).
fit: the weights fitted on every fold alone (the shipped Selection.fitted, scaled so the DTW
     cost's weight is the linear score's 40).

DUMP: the tuner's dump (`swipe tune --dump FILE --dump-only`, the decoder's filters).
"""
import json, sys, numpy as np
from common import load, ranks
from models import DEF, TERMS, score_ca, fit_ca, nested_recall

K = 64
START = dict(DEF, ctxfrequency=0.499, context=1.16, gate=-4, contextLow=0.41)

def scores(D, w):
    """The selection score of every row with a context and without."""
    c = dict(w, frequency=w["ctxfrequency"])
    return score_ca(D, c, True), score_ca(D, w, False)

def counts(D, w):
    """Swipes whose word is among the best K with a context and without, and among the best 4."""
    bc, bn = (ranks(s, D) for s in scores(D, w))
    return np.array([(bc < K).sum(), (bn < K).sum(), (bc < 4).sum(), (bn < 4).sum()])

def value(D, w):
    n = counts(D, w)
    return n[0] + n[1] + 1e-3 * (n[2] + n[3])

def fit(D, start=START):
    return fit_ca(D, start, None, paths=TERMS + ["frequency", "ctxfrequency", "context", "contextLow"], value_of=value, floor=0.05)

def scaled(w):
    """w with the DTW cost's weight 40, as SwipeDecoderOptions.Selection states it (only ratios count)."""
    k = 40.0 / w["cost"]
    return {p: (v * k if p != "gate" else v) for p, v in w.items()}

if __name__ == "__main__":
    mode = sys.argv[1]
    D = load()
    out = nested_recall(D, fit, counts, START, K) if mode == "cv" else {}
    w = fit(D)
    out["all"] = w
    print("all folds:", ", ".join("%s %.4g" % (p, v) for p, v in scaled(w).items()), flush=True)
    if len(sys.argv) > 2:
        json.dump(out, open(sys.argv[2], "w"), indent=1)
