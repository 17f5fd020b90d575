import numpy as np, os
from common import *

def gstat(x, D, fn):
    return fn.reduceat(x, D["starts"])[D["gid"]]

def grank(x, D):
    """rank of x within its group (0 = smallest), ties by order."""
    gid = D["gid"]
    order = np.lexsort((x, gid))
    r = np.empty(len(x)); r[order] = np.arange(len(x))
    return r - D["starts"][gid]

def build(D, kind):
    f = {}
    L = {t: D[t] for t in ["location", "shape", "cost", "start", "end", "length", "missed", "lexicon", "lm", "fit", "keys"]}
    for t in ["location", "shape", "cost", "start", "end", "length", "missed"]:
        f["-" + t] = -L[t]
    f["lexicon"] = L["lexicon"]
    noctx = gstat(((L["lm"] == 0) & (L["fit"] == 0)).astype(float), D, np.minimum) > 0.5
    if "ctx" in kind:
        f["lm"] = L["lm"]
        f["lm*[fit<-4]"] = L["lm"] * (L["fit"] < -4) * (~noctx)
        f["lexicon*noctx"] = L["lexicon"] * noctx
    if "nl" in kind:
        main = ["location", "shape", "cost", "start", "end", "missed"]
        for t in main:
            x = L[t]
            f["sq:" + t] = -x * x
            f["sqrt:" + t] = -np.sqrt(np.maximum(x, 0))
            dm = x - gstat(x, D, np.minimum)
            f["sqrtdmin:" + t] = -np.sqrt(np.maximum(dm, 0))
            f["rank:" + t] = -grank(x, D) / 160
            f["x*min:" + t] = -x * gstat(x, D, np.minimum)
            f["x*keys:" + t] = -x * L["keys"]
        f["sqrt:length"] = -np.sqrt(L["length"])
        f["keys"] = L["keys"]; f["keys2"] = L["keys"] ** 2
        f["lexicon*keys"] = L["lexicon"] * L["keys"]
        f["rank:lexicon"] = -grank(-L["lexicon"], D) / 160
        f["lexicon2"] = L["lexicon"] ** 2
        f["lexicon-max"] = L["lexicon"] - gstat(L["lexicon"], D, np.maximum)
        f["lexicon*cost"] = L["lexicon"] * L["cost"]
        f["lexicon*shape"] = L["lexicon"] * L["shape"]
        f["lexicon*location"] = L["lexicon"] * L["location"]
        names8 = ["location", "shape", "cost", "start", "end", "length", "missed"]
        for i in range(len(names8)):
            for j in range(i + 1, len(names8)):
                f["prod:%s*%s" % (names8[i], names8[j])] = -L[names8[i]] * L[names8[j]]
    # The trial columns (common.EXTRA_COLUMNS): the key match against where fingers pass each key
    # (keypassing.py's, KMO=.kmo.npy; a cost, so negated) and the learned shape model's
    # log-likelihoods (shapenet.py's, SHAPE=.shape.npy); neither shipped. KMO_FEATS=kmz,kmzworst or
    # SHAPE_FEATS=ctc for some of them.
    for var, sign in [("KMO", "-"), ("SHAPE", "")]:
        for t in EXTRA_COLUMNS[var]:
            if t in D and t in os.environ.get(var + "_FEATS", ",".join(EXTRA_COLUMNS[var])).split(","):
                f[sign + t] = -D[t] if sign else D[t]
    for t in ["dwell", "dwellworst", "dwellcorners", "keymatch", "keymatchworst", "turns", "turnsworst", "turncorners"]:
        if t in D:
            f["-" + t] = -D[t]
            f["sqrt:" + t] = -np.sqrt(np.maximum(D[t], 0))
            f["x*keys:" + t] = -D[t] * L["keys"]
    # The swipe's SwipeProfile (the same on each of its rows; dumps since 2026-11-26, late).
    for t in ["plength", "straightness", "turning", "rowratio", "pduration", "speed"]:
        if t in D:
            f["p:" + t] = D[t]
    if "nl" in kind and "ctx" in kind:
        lm = L["lm"]; fit = np.where(noctx, 0, L["fit"])
        f["lm*fit"] = lm * fit
        for g in [-7, -6, -5, -3]:
            f["lm*[fit<%d]" % g] = lm * (fit < g) * (~noctx)
        f["lm2"] = lm * lm
        f["lm*lexicon"] = lm * L["lexicon"]
        f["lm-max"] = lm - gstat(lm, D, np.maximum)
        f["rank:lm"] = -grank(-lm, D) / 160
        f["lm*cost"] = lm * L["cost"]
        f["lm*shape"] = lm * L["shape"]
        f["lexicon*[fit<-4]"] = L["lexicon"] * (fit < -4) * (~noctx)
        # The context's fit itself and whether there is no word before (a prompt's first word,
        # fit 0): the same on every row of a swipe, so the trees can weigh the other features
        # differently after a sentence, after unrelated words and at the start.
        f["fit"] = fit
        f["first"] = ((L["fit"] == 0) & ~noctx).astype(float)
        # The candidate's spelling (SwipeReranker.Spelling; dumps since 2026-11-27, eighteenth
        # session): capitalized, all capitals, a non-letter. Names and acronyms are rare after a
        # sentence and common in lists of unrelated words, so they help only beside the fit.
        for t in ["cap", "allcaps", "nonalpha"]:
            if t in D:
                f[t] = D[t]
    # Whether the word's path lies outside the DTW's locality constraint for this swipe (dumps
    # since 2026-11-28, twentieth session, whose DTW runs without it): the constraint no longer
    # caps the cost, but where it would have is still worth knowing.
    if "outside" in D:
        f["outside"] = D["outside"]
    # How far the swipe's first and last key width turn from the word's first and last steps
    # (SwipeTurns.ends, 1 - cos each; dumps since 2026-11-28, twenty-third session).
    for t in ["startturn", "endturn"]:
        if t in D:
            f["-" + t] = -D[t]
    # Where the swipe's first and last points lie along and across the word's first and last
    # steps (SwipeTurns.endOffsets, key widths; dumps since 2026-12-01, forty-second session):
    # real swipes end past their last key, in the direction the finger moves.
    for t in ["startalong", "startacross", "endalong", "endacross"]:
        if t in D:
            f[t] = D[t]
    # The swipe's first and last points against the word's first and last key centres (dx, dy,
    # key widths) and the same after each key's mean offset on other users' swipes
    # (keyoffsets.py, SwipeEndKeyOffsets; dumps since 2026-12-07, forty-fifth session). KEYOFF is
    # keyoffsets.py's table: `cv` reads each row's fold's (fitted on the other folds' swipes),
    # `fit` (KEYOFF_ALL=1) the one of every swipe, which the decoder ships.
    if "sdx" in D and os.environ.get("KEYOFF"):
        T = np.load(os.environ["KEYOFF"])
        fold = np.full(len(D["fold"]), 5) if os.environ.get("KEYOFF_ALL") else D["fold"].astype(int)
        for side, fk in (("s", "fkey"), ("e", "lkey")):
            k = np.maximum(D[fk].astype(int), 0)
            m = T[side + "mean"][fold, k]          # [rows, 2]
            dx = D[side + "dx"] - m[:, 0]; dy = D[side + "dy"] - m[:, 1]
            f[side + "dx"] = D[side + "dx"]; f[side + "dy"] = D[side + "dy"]
            f["-c" + side] = -(dx * dx + dy * dy) * (D[fk] >= 0)
            v = T[side + "var"][fold, k]
            f["-z" + side] = -(dx * dx / v[:, 0] + dy * dy / v[:, 1]) * (D[fk] >= 0)
    # How all the words before the swipe read (NgramPredictor.contextMeanFit: the mean log10 p of
    # each after the ones before it from <s>, and their number; 0 and 0 for none; dumps since
    # 2026-12-07, forty-seventh session): the fit reads only the last word.
    for t in ["meanfit", "nctx"]:
        if t in D:
            f[t] = D[t]
    # EXTRA=FILE.npz: per-swipe arrays in the dumps' sample order (contextfit.py's), each a feature
    # "x:NAME"; an augmented dump's samples are two copies a swipe (forty-seventh session, a trial).
    if os.environ.get("EXTRA"):
        E = np.load(os.environ["EXTRA"]); n = len(E["nctx"])
        samp = D["sample"].astype(np.int64)
        samp = samp // 2 if samp.max() >= n else samp
        for key in E.files:
            f["x:" + key] = E[key][samp]
    names = list(f)
    X = np.column_stack([f[n] for n in names])
    return X, names
