import time, numpy as np
from common import *

def subset(D, smask):
    rows = smask[D["gid"]]
    E = {}
    for c in COLS + ["truthb"]:
        E[c] = D[c][rows]
    samp = E["sample"].astype(np.int64)
    E["starts"] = np.flatnonzero(np.r_[True, samp[1:] != samp[:-1]])
    E["gid"] = np.cumsum(np.r_[False, samp[1:] != samp[:-1]])
    E["sfold"] = D["sfold"][smask]; E["hasTruth"] = D["hasTruth"][smask]
    E["rows"] = rows
    return E

TERMS = ["location", "shape", "cost", "start", "end", "length", "missed"]
DEF = dict(location=0.64, shape=23.8, cost=40.0, start=9.83, end=2.25, length=0.2, missed=4.5, frequency=1.0,
           context=0.0, gate=None, contextLow=0.0)

def score_ca(D, w, context):
    s = -sum(w[t] * D[t] for t in TERMS) + w["frequency"] * D["lexicon"]
    if context:
        if w["gate"] is not None:
            cw = np.where(D["fit"] < w["gate"], w["contextLow"], w["context"])
        else:
            cw = w["context"]
        s = s + cw * D["lm"]
    return s

def objective(D, s):
    b = ranks(s, D)
    return (b == 0).sum() + (b < 4).sum() / 4

def fit_ca(D, start, context, paths=None, value_of=None, floor=0.1):
    """Coordinate ascent on the weights `paths` (by default the context's or the terms'), each
    multiplied or divided by shrinking factors while `value_of(D, w)` rises (by default the
    linear decoder's top-1 plus a quarter of its top-4); a weight under `floor` steps to it or 0."""
    value_of = value_of or (lambda D, w: objective(D, score_ca(D, w, context)))
    best = dict(start)
    value = value_of(D, best)
    if paths is None:
        paths = (["frequency", "context"] + (["contextLow"] if start["gate"] is not None else [])) if context else TERMS
    for factor in [2.0, 1.41, 1.19, 1.09]:
        improved, rounds = True, 0
        while improved and rounds < 6:
            improved = False; rounds += 1
            for p in paths:
                for f in [factor, 1 / factor]:
                    w = dict(best)
                    w[p] = (floor if f > 1 else 0) if w[p] < floor else w[p] * f
                    v = value_of(D, w)
                    if v > value + 1e-9:
                        value, best, improved = v, w, True
    return best

def fit_context(D, start):
    ung = fit_ca(D, start, True)
    best, value = ung, objective(D, score_ca(D, ung, True))
    for g in [-7.0, -6, -5, -4, -3]:
        w = dict(ung); w["gate"] = g; w["contextLow"] = w["context"] / 2
        w = fit_ca(D, w, True)
        v = objective(D, score_ca(D, w, True))
        if v > value + 1e-9: value, best = v, w
    return best

def context_start(w):
    c = dict(w); c["frequency"] = 0.499; c["context"] = 1.16; c["gate"] = None; c["contextLow"] = 0.41
    return c

def regroup(D0, keep):
    """The rows of D0 where `keep`, grouped by swipe as load() groups them."""
    D = {c: D0[c][keep] for c in COLS + ["truthb"]}
    samp = D["sample"].astype(np.int64)
    D["starts"] = np.flatnonzero(np.r_[True, samp[1:] != samp[:-1]])
    D["gid"] = np.cumsum(np.r_[False, samp[1:] != samp[:-1]])
    D["sfold"] = D["fold"][D["starts"]].astype(int)
    D["hasTruth"] = np.logical_or.reduceat(D["truthb"], D["starts"])
    return D

def nested_recall(D, fit, counts, start, K):
    """Nested by user: each fold's weights fit(other folds' rows), counts(fold's rows, weights)
    (the swipes whose word is among the best K, with a context and without, then any more)
    against counts(…, start); prints each fold and the means, returns the per-fold weights."""
    total = sum(DENOM.values())
    t0, out, new, old = time.time(), {}, 0, 0
    for k in sorted(DENOM):
        w = fit(subset(D, D["sfold"] != k))
        te = subset(D, D["sfold"] == k)
        a, b = counts(te, w), counts(te, start)
        new, old, out[str(k)] = new + a, old + b, w
        print("fold %d: word among the best %d with context %d, without %d (the linear score's: %d, %d) %.0fs"
              % (k, K, a[0], a[1], b[0], b[1], time.time() - t0), flush=True)
    print("RESULT nested, in-dictionary swipes with the word among the best %d: context %.2f%% without %.2f%% "
          "(the linear score's: %.2f%%, %.2f%%)" % (K, 100 * new[0] / total, 100 * new[1] / total,
                                                      100 * old[0] / total, 100 * old[1] / total), flush=True)
    return out

# ---------- top K of the linear score, and the softmax's groups ----------
def top_k(D0, kind, K, sel, select=None):
    """The rows of each swipe's top K by the shipped linear weights, and their features (sel: names or None).
    select: other weights for choosing the top K (selection.py's keys: the terms, frequency without
    context, ctxfrequency, context, contextLow, gate), the shortlist itself left as the dump has it."""
    import feats
    ctx = "ctx" in kind
    w0 = dict(DEF)
    # The decoder's defaults (SwipeDecoderOptions: contextFrequencyWeight, contextWeight,
    # contextGate, contextWeightLow), so the top K here are the ones the decoder reranks. (Until
    # 2026-11-26 these were the tuner's refit, 0.541 / 1.26 / 0.377: the same figures either way.)
    if ctx: w0.update(frequency=0.499, context=1.16, gate=-4, contextLow=0.41)
    ws = w0
    if select is not None:
        ws = dict(select)
        if ctx: ws["frequency"] = select["ctxfrequency"]
    keep = feats.grank(-score_ca(D0, ws, ctx), D0) < K
    # SHORTLIST=n: a dump of a wider shortlist (`swipe tune --wide-shortlist`) read as the decoder
    # with `shortlist` n would see it: its best n by the cheap stage's score (the linear score
    # without the DTW cost and the missed key) first, then their best K as above (by `select`'s
    # weights when given: until 2026-11-30 this path ranked by the linear weights whatever `select`).
    if os.environ.get("SHORTLIST"):
        cheap = score_ca(D0, w0, ctx) + w0["cost"] * D0["cost"] + w0["missed"] * D0["missed"]
        near = feats.grank(-cheap, D0) < int(os.environ["SHORTLIST"])
        keep = feats.grank(-np.where(near, score_ca(D0, ws, ctx), -np.inf), D0) < K
        keep &= near
    D = regroup(D0, keep)
    assert len(D["starts"]) == len(D0["starts"])
    X, names = feats.build(D, kind)
    if sel:
        idx = [names.index(n) for n in sel]; X = X[:, idx]; names = [names[i] for i in idx]
    return D, X, names

# In-dictionary swipes per fold (the tuner's counts for the development set and the shipped
# store). A dump of another store (another dictionary) has other counts: DENOM="a,b,c,d,e", from
# the tuner's "fold k (n swipes)" lines.
DENOM = dict(enumerate(int(x) for x in os.environ.get("DENOM", "4205,3918,3652,3848,3059").split(",")))

def groups(X, D):
    """Standardised features of the swipes whose word is among their rows, targets uniform over truth rows."""
    keep = D["hasTruth"][D["gid"]]
    X = X[keep]; gid = D["gid"][keep]; tr = D["truthb"][keep]
    _, gid = np.unique(gid, return_inverse=True)
    starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    mu = X.mean(0); sd = X.std(0); sd[sd == 0] = 1
    ntr = np.add.reduceat(tr.astype(float), starts)
    return (X - mu) / sd, tr / ntr[gid], gid, starts, len(starts), mu, sd

# ---------- conditional logit ----------
def fit_softmax(X, D, lam=1e-3, iters=30, w0=None, verbose=False):
    """Listwise softmax over each sample's rows; targets uniform over truth rows; samples without truth dropped.
    L2 lam * n * |w|^2 / 2 on standardized features. Returns weights in the raw feature space."""
    Z, y, gid, starts, n, mu, sd = groups(X, D)
    F = Z.shape[1]
    w = np.zeros(F) if w0 is None else w0 * sd
    def stats(w):
        s = Z @ w
        m = np.maximum.reduceat(s, starts)
        e = np.exp(s - m[gid])
        Zs = np.add.reduceat(e, starts)
        lse = m + np.log(Zs)
        p = e / Zs[gid]
        ll = (y * (s - lse[gid])).sum()
        return -ll / n + lam * w @ w / 2, p
    f, p = stats(w)
    for it in range(iters):
        Ep = np.add.reduceat(p[:, None] * Z, starts)
        Ey = np.add.reduceat(y[:, None] * Z, starts)
        g = -(Ey - Ep).sum(0) / n + lam * w
        H = (Z.T @ (p[:, None] * Z) - Ep.T @ Ep) / n + lam * np.eye(F)
        step = np.linalg.solve(H, g)
        t = 1.0
        while True:
            wn = w - t * step
            fn, pn = stats(wn)
            if fn <= f + 1e-12 or t < 1e-6: break
            t /= 2
        dec = f - fn
        w, f, p = wn, fn, pn
        if verbose: print(it, f, dec, flush=True)
        if dec < 1e-9: break
    return w / sd, -(mu / sd) @ w

def fit_ca_vec(X, D, w0, factors=(1.41, 1.19, 1.09, 1.04), maxrounds=4, idx=None):
    """Coordinate ascent of top1+top4/4 on a general weight vector: multiply each weight by f or 1/f."""
    best = w0.copy(); value = objective(D, X @ best)
    idx = range(len(w0)) if idx is None else idx
    for factor in factors:
        improved, rounds = True, 0
        while improved and rounds < maxrounds:
            improved = False; rounds += 1
            for i in idx:
                for f in [factor, 1 / factor]:
                    w = best.copy(); w[i] *= f
                    v = objective(D, X @ w)
                    if v > value + 1e-9: value, best, improved = v, w, True
    return best
