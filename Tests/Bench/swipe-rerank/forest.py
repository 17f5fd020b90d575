"""The reranker as boosted trees (LambdaMART): python3 forest.py cv|fit KIND FEATURE_FILE [NAME].

The same features as mlp.py over each swipe's top 64 (the decoder's `rerank`; mlp.py reranks 32), ranked by a LightGBM `lambdarank`
forest (300 trees of 31 leaves without context, 600 with; learning rate 0.05, NDCG truncated at
10, rows and features bagged at 0.8, one thread, seed 1: the same forest on every run). Each
shipped forest is an ensemble of two such forests, seeds 1 and 2, averaged (`seeds_for`).

cv:  nested by-user figures (fit on 4 folds, measure the 5th) at 300, 600 and 1000 trees
     (CV_TREES=600 for one size alone, CV_TREES=shipped for the size `fit` uses).
fit: fit on every fold (`trees_for(KIND)` trees per seed, the seeds' trees in one forest with
     their leaves divided by the number of seeds), check that the encoded forest scores 20,000 rows
     as LightGBM does (its leaves are Float32: within 1e-4), and print `static let NAME = "..."`
     (base64 of the encoding SwipeForest.swift reads) for Sources/LexiforgeReader/Swipe/
     SwipeForest+Fitted.swift (without context) or SwipeForest+FittedContext.swift (with), with
     eight rows of features and the encoded forest's scores of them for the tests (stderr). The
     seeds' trees follow one another, seed 1's first: the decoder stops scoring hopeless
     candidates after the first half of the trees (SwipeReranker.Pruning), which must be a
     whole seed's forest.
     It also prints (stderr) the pruning's margin the fitted swipes need (SwipeReranker.Pruning
     ships 2.0).
AUG=DUMP2 (cv and fit): the tuner's dump of augmented copies of the same swipes (augment.py,
     `swipe tune --dump DUMP2 --dump-only`); their rows join the training rows, each copy with its
     user's fold, so `cv` never trains on a copy of a test user's swipe. The two context forests
     are fitted so since 2026-11-29 (twenty-fifth session).
     SAVE_SCORES=PREFIX (cv): each seed's held-out scores, PREFIX-FOLD-TREES.npy, and the fold's
     group starts, PREFIX-FOLD-starts.npy (how far the seeds disagree: the pruning's margin).
MODEL_CACHE=DIR (cv): keep each fold's forests in DIR and reuse them when a later run fits the
     same rows (`cached_forest`): measuring other test dumps then takes minutes, not hours.

Needs `pip install lightgbm` (4.x) beside numpy.
"""
import base64, json, os, struct, sys, time, numpy as np
import lightgbm as lgb
from common import *
from models import *

PARAMS = dict(objective="lambdarank", learning_rate=0.05, num_leaves=31, min_data_in_leaf=50,
              feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1, lambdarank_truncation_level=10,
              lambda_l2=1.0, verbose=-1, num_threads=1, seed=1, deterministic=True)
# PARAMS_JSON='{"feature_fraction": 0.5}' overrides the shipped parameters (experiments).
PARAMS.update(json.loads(os.environ.get("PARAMS_JSON", "{}")))
TREES = 300
def trees_for(kind):
    """The shipped size: 600 trees for the context forests (since 2026-11-27, seventeenth session:
    nested +0.24 top-1, +0.08 top-4 over 300, every fold), 300 without context; TREES overrides."""
    return int(os.environ.get("TREES", 600 if "ctx" in kind else TREES))
def seeds_for(kind):
    """The shipped ensemble: every forest averages two forests of LightGBM seeds 1 and 2 (since
    2026-11-28: nested, with context +0.15 top-1 over seed 1 alone, every fold; without, +0.06
    top-4, four folds of five; a third seed added nothing); SEEDS overrides."""
    return [int(x) for x in os.environ.get("SEEDS", "1,2").split(",")]
# Candidates per swipe: the best 64 by the decoder's linear score (SwipeDecoderOptions.rerank).
# Since 2026-11-27 (sixteenth session; 32 before): top-4 +0.24 without context, +0.10 with, nested,
# on the first two folds, for 0.4 ms of p50.
# RERANK=n fits (and measures) on each swipe's best n instead; TEST_RERANK=n measures on the test
# dumps' best n alone (the forests still fitted on the best RERANK).
RERANK = int(os.environ.get("RERANK", 64))
TEST_RERANK = int(os.environ.get("TEST_RERANK", RERANK))

def fit_forest(X, D, trees=TREES, seed=PARAMS["seed"]):
    """LambdaMART over each swipe's rows (the swipes whose word is among them; label 1 for it)."""
    keep = D["hasTruth"][D["gid"]]
    _, count = np.unique(D["gid"][keep], return_counts=True)
    data = lgb.Dataset(X[keep], D["truthb"][keep].astype(int), group=count, params={"verbose": -1})
    return lgb.train(dict(PARAMS, seed=seed), data, num_boost_round=trees)

def cached_forest(X, D, trees, seed, key):
    """fit_forest, or (MODEL_CACHE=DIR) the forest an earlier run fitted on the same rows: a fold's
    forests then cost one fit however many test dumps (TEST_DUMP, TEST_SELECT) later runs measure.
    The key is the fit's parameters, trees, seed and `key` (kind, feature set, fold; and RERANK
    when it is not the shipped 64, so the forests cached before it existed stay valid) and the
    training dumps (DUMP, AUG) and their trial columns' files by path, size and modification time."""
    cache = os.environ.get("MODEL_CACHE")
    if not cache:
        return fit_forest(X, D, trees, seed)
    import hashlib
    training = list(filter(None, [os.environ.get("DUMP", "/tmp/swipe-rerank/dump.tsv"), os.environ.get("AUG")]))
    # The trial columns beside them (common.EXTRA_COLUMNS: SHAPE=.shape.npy, …) are part of the rows too.
    training += [p + os.environ[var] for var in EXTRA_COLUMNS if os.environ.get(var) for p in training[:2]]
    dumps = [(p, os.path.getsize(p), os.path.getmtime(p)) for p in training if os.path.exists(p)]
    if RERANK != 64: key = dict(key, rerank=RERANK)
    h = hashlib.sha1(json.dumps([PARAMS, trees, seed, key, dumps], sort_keys=True).encode()).hexdigest()[:16]
    path = os.path.join(cache, "forest-%s.txt" % h)
    if os.path.exists(path):
        return lgb.Booster(model_file=path)
    model = fit_forest(X, D, trees, seed)
    os.makedirs(cache, exist_ok=True)
    model.save_model(path + ".tmp"); os.replace(path + ".tmp", path)
    return model

def with_copies(X, D, XA, A):
    """The rows of D and then those of A (augmented copies), as fit_forest reads them."""
    return np.vstack([X, XA]), dict(gid=np.r_[D["gid"], A["gid"] + D["gid"].max() + 1],
                                    hasTruth=np.r_[D["hasTruth"], A["hasTruth"]], truthb=np.r_[D["truthb"], A["truthb"]])

def encode(models, F, scale=1.0):
    """The trees of `models`, in order, as one forest, each leaf times `scale`, encoded as
    SwipeForest reads it (little-endian): "LXRF", version 2, UInt16 features, UInt32 trees; per
    feature UInt16 thresholds and their Float64s (ascending); per tree UInt16 inner nodes, each
    UInt8 feature, UInt16 threshold index, Int16 left, Int16 right (a child below 0 is leaf
    ~child), then the inner nodes + 1 leaves as Float32. x <= threshold goes left."""
    trees = [t for m in models for t in m.dump_model()["tree_info"]]
    thresholds = [set() for _ in range(F)]
    def walk(n):
        if "leaf_value" in n: return
        assert n["decision_type"] == "<=" and n["missing_type"] == "None", n   # plain x <= threshold
        thresholds[n["split_feature"]].add(float(n["threshold"]))
        walk(n["left_child"]); walk(n["right_child"])
    for t in trees: walk(t["tree_structure"])
    thresholds = [sorted(s) for s in thresholds]
    index = [{v: i for i, v in enumerate(s)} for s in thresholds]
    out = bytearray(b"LXRF") + struct.pack("<BHI", 2, F, len(trees))
    for s in thresholds:
        out += struct.pack("<H", len(s)) + b"".join(struct.pack("<d", v) for v in s)
    for t in trees:
        inner, leaves = [], []
        def number(n):
            if "leaf_value" in n:
                leaves.append(scale * float(n["leaf_value"])); return ~(len(leaves) - 1)
            k = len(inner); inner.append(None)
            l = number(n["left_child"]); r = number(n["right_child"])
            f = n["split_feature"]
            inner[k] = (f, index[f][float(n["threshold"])], l, r)
            return k
        number(t["tree_structure"])
        assert len(leaves) == len(inner) + 1
        out += struct.pack("<H", len(inner))
        for f, i, l, r in inner: out += struct.pack("<BHhh", f, i, l, r)
        out += b"".join(struct.pack("<f", v) for v in leaves)
    return bytes(out)

def decode_score(blob, X):
    """Scores of the rows of X by the encoded forest, as SwipeForest.score computes them."""
    magic, (version, F, T) = blob[:4], struct.unpack_from("<BHI", blob, 4)
    assert magic == b"LXRF" and version == 2 and F == X.shape[1]
    o = 11; th = []
    for _ in range(F):
        (c,) = struct.unpack_from("<H", blob, o); o += 2
        th.append(np.array(struct.unpack_from("<%dd" % c, blob, o))); o += 8 * c
    s = np.zeros(len(X))
    for _ in range(T):
        (n,) = struct.unpack_from("<H", blob, o); o += 2
        nodes = [struct.unpack_from("<BHhh", blob, o + 7 * k) for k in range(n)]; o += 7 * n
        leaves = np.array(struct.unpack_from("<%df" % (n + 1), blob, o), dtype=np.float64); o += 4 * (n + 1)
        at = np.zeros(len(X), dtype=np.int64) if n else np.full(len(X), -1)
        live = at >= 0
        while live.any():
            for k in np.unique(at[live]):
                f, i, l, r = nodes[k]
                m = live & (at == k)
                at[m] = np.where(X[m, f] <= th[f][i], l, r)
            live = at >= 0
        s += leaves[~at]
    assert o == len(blob)
    return s

if __name__ == "__main__":
    mode, kind, setf = sys.argv[1], sys.argv[2], sys.argv[3]
    features = open(setf).read().strip().split(",")
    D, X, names = top_k(load(), kind, RERANK, features)
    # AUG=DUMP2: a dump of augmented copies of the same users' swipes (the same format); `cv` adds
    # the copies of each fold's training users to its training rows, never to its test rows.
    A = XA = None
    if os.environ.get("AUG"):
        A, XA, _ = top_k(load(os.environ["AUG"]), kind, RERANK, features)
    # TEST_DUMP=DUMP3[,DUMP4…]: also measure each fold's forests on other dumps of the same swipes
    # (the same folds and in-dictionary counts: say the decoder with other filters), the forests
    # still fitted on DUMP's (and AUG's) rows: what shipping them with that decoder would give.
    # TEST_SELECT=FILE (cv): also measure each fold's forests on the test dumps' rows chosen by
    # that fold's weights in FILE (`selection.py cv`'s JSON, fitted on the other folds' users) instead
    # of the linear score: the decoder's candidates since 2026-11-29 (SwipeDecoderOptions.Selection).
    # TEST_SELECT=FILE1,FILE2…: one file per test dump, in TEST_DUMP's order (say dumps of
    # other shortlists, each with the weights `selection.py cv` fitted on it).
    test_paths = list(filter(None, os.environ.get("TEST_DUMP", "").split(",")))
    select_paths = list(filter(None, os.environ.get("TEST_SELECT", "").split(",")))
    if len(select_paths) == 1: select_paths *= len(test_paths)
    assert not select_paths or len(select_paths) == len(test_paths), "TEST_SELECT: one file, or one per TEST_DUMP"
    test_select = bool(select_paths)
    tests, test_dumps = [("", D, X)], []
    for j, path in enumerate(test_paths):
        DT0 = load(path)
        DT, XT, _ = top_k(DT0, kind, TEST_RERANK, features)
        tests.append((" on " + os.path.basename(path), DT, XT))
        if test_select: test_dumps.append((path, DT0, select_paths[j], json.load(open(select_paths[j]))))
    t0 = time.time()
    if mode == "cv":
        res, after = {}, {}
        sizes = os.environ.get("CV_TREES", "300,600,1000")
        sizes = [trees_for(kind)] if sizes == "shipped" else [int(t) for t in sizes.split(",")]
        # Per fold, one forest per seed of the shipped ensemble (`seeds_for`; SEEDS=1 for one),
        # their scores averaged.
        seeds = seeds_for(kind)
        # FOLDS=3,4: only those folds (a nested run split over processes; the RESULT lines then average them).
        for k in [int(x) for x in os.environ.get("FOLDS", "0,1,2,3,4").split(",")]:
            tr = D["sfold"] != k
            # LEARNING_DROP=n: fit on n fewer of the other folds (the next ones after k), for a
            # learning curve: how much the nested figure grows with the number of users fitted on.
            for j in range(1, 1 + int(os.environ.get("LEARNING_DROP", "0"))):
                tr = tr & (D["sfold"] != (k + j) % 5)
            Dtr = subset(D, tr)
            Xtr, Dtr = X[Dtr["rows"]], Dtr
            if A is not None:
                Atr = subset(A, A["sfold"] != k)
                Xtr, Dtr = with_copies(Xtr, Dtr, XA[Atr["rows"]], Atr)
            models = [cached_forest(Xtr, Dtr, max(sizes), seed, dict(kind=kind, setf=open(setf).read(), fold=k,
                      drop=os.environ.get("LEARNING_DROP", "0"))) for seed in seeds]
            # SEED_CURVE=1: also the averages of the first 1, 2, … seeds' forests.
            counts = range(1, len(models) + 1) if os.environ.get("SEED_CURVE") else [len(models)]
            fold_tests = list(tests)
            if test_select:
                for path, DT0, select_path, select in test_dumps:
                    DT, XT, _ = top_k(DT0, kind, TEST_RERANK, features, select[str(k)])
                    fold_tests.append((" on " + os.path.basename(path) + ", selected by " + os.path.basename(select_path), DT, XT))
            for suffix, DT, XT in fold_tests:
                Dte = subset(DT, DT["sfold"] == k)
                # The swipes after words that read like a sentence (context fit at least the gate, −4;
                # 0 is a prompt's first word, which has none): `eval swipe`'s thesis comparison.
                fit = Dte["fit"][Dte["starts"]]
                sentence = (fit >= -4) & (fit != 0)
                for trees in sizes:
                    scores = [m.predict(XT[Dte["rows"]], num_iteration=trees) for m in models]
                    # SAVE_SCORES=PREFIX: each seed's held-out scores (PREFIX-fold-trees.npy, one row
                    # per seed) and the fold's group starts, e.g. to see how often the seeds disagree.
                    if os.environ.get("SAVE_SCORES") and not suffix:
                        np.save("%s-%d-%d.npy" % (os.environ["SAVE_SCORES"], k, trees), np.array(scores))
                        np.save("%s-%d-starts.npy" % (os.environ["SAVE_SCORES"], k), Dte["starts"])
                    for n in counts:
                        s = sum(scores[:n]) / n
                        r = acc_by_fold(s, Dte, {k: DENOM[k]})[0]
                        key = "%d trees" % trees + (", %d seeds" % n if len(counts) > 1 else "") + suffix
                        res.setdefault(key, []).append(r)
                        better = ranks(s, Dte)[sentence]
                        after.setdefault(key, []).append(((better == 0).sum(), (better < 4).sum(), len(better)))
                        print("fold", k, key, r, "%.0fs" % (time.time() - t0), flush=True)
        for key, r in res.items():
            print("RESULT forest", kind, setf, key + ": top1 %.2f top4 %.2f" % tuple(np.mean(r, 0) * 100), flush=True)
            if "ctx" in kind:
                a = np.sum(after[key], 0)
                print("  after words that read like a sentence (%d swipes): top1 %.2f top4 %.2f" % (a[2], 100 * a[0] / a[2], 100 * a[1] / a[2]), flush=True)
    else:
        name = sys.argv[4] if len(sys.argv) > 4 else "forest"
        trees = trees_for(kind)
        # One forest per seed (`seeds_for`), their trees in one forest with every leaf divided by
        # their number: the average of their scores (the scale is a power of two for 1, 2 or 4
        # seeds, so the Float32 leaves lose nothing more).
        Xfit, Dfit = with_copies(X, D, XA, A) if A is not None else (X, D)
        models = [fit_forest(Xfit, Dfit, trees, seed) for seed in seeds_for(kind)]
        blob = encode(models, X.shape[1], 1 / len(models))
        sample = np.random.default_rng(1).choice(len(X), 20000, replace=False)
        mine = decode_score(blob, X[sample])
        theirs = sum(m.predict(X[sample]) for m in models) / len(models)
        # The same trees and thresholds; the leaves rounded to Float32 move a score by about 1e-6.
        assert np.allclose(mine, theirs, rtol=0, atol=1e-4), np.abs(mine - theirs).max()
        print("// %s, %d features, %d trees%s, %d bytes; fitted %s" % (setf, X.shape[1], trees * len(models),
              " (%d seeds of %d)" % (len(models), trees) if len(models) > 1 else "", len(blob), time.strftime("%Y-%m-%d")))
        print('static let %s = "%s"' % (name, base64.b64encode(blob).decode()))
        for j in sample[:8]:
            print("([%s], %.17g)," % (", ".join("%.17g" % x for x in X[j]), mine[list(sample).index(j)]), file=sys.stderr)
        print("fit %.0fs, checked on %d rows" % (time.time() - t0, len(sample)), file=sys.stderr)
        # The pruning's margin (SwipeReranker.Pruning, 2.0): how far below the 4th best the first
        # seed's half of the score ever puts one of a swipe's final top 4, on the fitted swipes.
        if len(models) == 2:
            half = models[0].predict(X) / 2
            full = half + models[1].predict(X) / 2
            need, kept = 0.0, 0
            for a, b in zip(D["starts"], np.r_[D["starts"][1:], len(X)]):
                if b - a <= 4: continue
                h4 = np.sort(half[a:b])[::-1][3]
                top = np.argsort(-full[a:b], kind="stable")[:4]
                need = max(need, h4 - half[a:b][top].min())
                kept += (half[a:b] >= h4 - 2.0).sum()
            print("pruning: margin needed in-sample %.3f; margin 2.0 completes %.1f%% of the rows" % (need, 100 * kept / len(X)), file=sys.stderr)
