"""The learned shape model (SwipeShapeNetwork, LexiforgeReader; a trial on 2026-12-07, fiftieth
session, shipped in the fifty-first at 64 channels):

    python3 shapenet.py train TRACES.jsonl.gz STORE.sqlite DUMP FOLD MODEL.npz   # FOLD 0-4, 5 = every user
    python3 shapenet.py rows TRACES.jsonl.gz STORE.sqlite DUMP MODELS_PREFIX     # writes DUMP.shape.npy
    python3 shapenet.py swift MODEL.npz SwipeShapeNetwork+Fitted.swift           # the shipped network (FOLD 5)
    python3 shapenet.py fixture FILE.json                                        # the Swift tests' fixture

The decoder scores a candidate by geometry it was told about (DTW against the word's ideal path,
the key match, the ends' offsets). This learns, from the real swipes of the training folds' users,
how people actually swipe: a small temporal convolutional network reads the swipe (64 points
resampled uniformly in time; each point's position, direction, relative speed and its closeness
to each of the 26 letter keys) and gives at each point the probability of each key or of none
(connectionist temporal classification, CTC, as the published neural swipe decoders train).
A candidate's score is the CTC log-likelihood of its key path (the store's: a repeated letter
once), log p(word's keys | swipe): `ctc`, `ctc` per key (`ctcn`) and `ctc` less the best of its
swipe's shortlist (`ctcrel`).

`train` fits one network on every trace (in and out of the dictionary) of the users outside FOLD,
the folds as DUMP assigns them to users (the tuner's), with each swipe moved, scaled and turned
at random every epoch (augment.py's spreads). `rows` scores each row of DUMP with the network of
its swipe's fold (MODELS_PREFIX-FOLD.npz), so no row is scored by a network that saw its user:
the forests are fitted on those held-out columns, and the decoder computes them with the network
trained on every user (FOLD 5), which `swift` writes as the Swift source of its encoding.
common.load reads the columns when SHAPE=.shape.npy; feats.py adds them. WIDTH (channels, 64;
the trial's 128) and EPOCHS (20; the trial's 12) from the environment.

Needs jax, jaxlib and optax (PyPI, CPU; `make bench-deps`). The seeds are fixed (the fold).
"""
import gzip, json, os, sys, time, numpy as np
from common import load, dump_traces, ranks
from keypassing import points, path, X, ROW, LETTERS

T, BLOCKS, KERNEL, LMAX = 64, (1, 2, 4, 8, 1), 5, 24
WIDTH = int(os.environ.get("WIDTH", 64))
EPOCHS, BATCH, LR = int(os.environ.get("EPOCHS", 20)), 64, 2e-3
NK = len(LETTERS)

def resample(line):
    """The swipe as T points uniform in time (layout units), each point's relative speed, and
    the row height ratio."""
    P, ratio, t = points(line, times=True)
    R, speed = resample_points(P, t)
    return R, speed, ratio

def resample_points(P, t):
    """Points P (layout units) at times t as T points uniform in time, and each one's relative
    speed (SwipeShapeNetwork.features)."""
    if len(P) == 0:
        return np.zeros((T, 2)), np.zeros(T)
    if len(P) == 1 or t[-1] <= t[0]:
        t = np.arange(len(P), dtype=float)
    t = np.maximum.accumulate(t)
    u = np.linspace(t[0], t[-1], T) if t[-1] > t[0] else np.zeros(T)
    R = np.column_stack([np.interp(u, t, P[:, 0]), np.interp(u, t, P[:, 1])]) if t[-1] > t[0] else np.repeat(P[:1], T, 0)
    step = np.r_[0, np.hypot(*np.diff(R, axis=0).T)]
    speed = step / (step.mean() + 1e-6)
    return R, speed

def features(R, speed, ratio):
    """[B, T, 5 + 26]: x, y, the step's direction (dx, dy, scaled), relative speed, and
    exp(-d² / 0.5) to each letter key's centre (rows `ratio` key widths tall)."""
    B = len(R)
    d = np.diff(R, axis=1, prepend=R[:, :1])
    centres = np.stack([np.broadcast_to(X, (B, NK)), ROW[None] * ratio[:, None]], -1)   # [B, 26, 2]
    d2 = ((R[:, :, None, :] - centres[:, None]) ** 2).sum(-1)
    near = np.exp(-d2 / 0.5)
    base = np.concatenate([R[..., :1] / 5 - 1, R[..., 1:] / 2.4 - 1, d * 3, speed[..., None] - 1], -1)
    return np.concatenate([base, near], -1).astype(np.float32)

def augment(R, rng):
    """Each swipe moved (N(0, 0.15) key widths), scaled about its centroid (exp N(0, 0.08)) and
    turned (N(0, 2) degrees), as augment.py."""
    B = len(R)
    c = R.mean(1, keepdims=True)
    s = np.exp(rng.normal(0, 0.08, (B, 1, 1)))
    a = np.radians(rng.normal(0, 2, B))
    rot = np.stack([np.stack([np.cos(a), -np.sin(a)], -1), np.stack([np.sin(a), np.cos(a)], -1)], -2)   # [B, 2, 2]
    Q = np.einsum("bij,btj->bti", rot, (R - c) * s) + c
    return Q + rng.normal(0, 0.15, (B, 1, 2))

def labels(words):
    L = np.zeros((len(words), LMAX), np.int32); pad = np.ones((len(words), LMAX), np.float32)
    for i, w in enumerate(words):
        p = path(w)[:LMAX]
        L[i, :len(p)] = np.array(p, np.int32) + 1; pad[i, :len(p)] = 0
    return L, pad

# ---- the network (plain JAX) ----
def init(key, fin):
    import jax
    ks = iter(jax.random.split(key, 2 + 2 * len(BLOCKS)))
    he = lambda k, shape, fan: jax.random.normal(k, shape) * np.sqrt(2.0 / fan)
    p = {"in_w": he(next(ks), (KERNEL, fin, WIDTH), KERNEL * fin), "in_b": np.zeros(WIDTH, np.float32)}
    for i, _ in enumerate(BLOCKS):
        p["w%d" % i] = he(next(ks), (KERNEL, WIDTH, WIDTH), KERNEL * WIDTH) * 0.5
        p["b%d" % i] = np.zeros(WIDTH, np.float32)
        p["g%d" % i] = np.ones(WIDTH, np.float32); p["n%d" % i] = np.zeros(WIDTH, np.float32)
    p["out_w"] = he(next(ks), (WIDTH, NK + 1), WIDTH) * 0.1; p["out_b"] = np.zeros(NK + 1, np.float32)
    return p

def forward(p, x):
    import jax, jax.numpy as jnp
    def conv(h, w, b, dil):
        return jax.lax.conv_general_dilated(h, w, (1,), "SAME", rhs_dilation=(dil,),
                                            dimension_numbers=("NWC", "WIO", "NWC")) + b
    h = jax.nn.gelu(conv(x, p["in_w"], p["in_b"], 1))
    for i, dil in enumerate(BLOCKS):
        z = h - h.mean(-1, keepdims=True); z = z / jnp.sqrt((z ** 2).mean(-1, keepdims=True) + 1e-5)
        z = z * p["g%d" % i] + p["n%d" % i]
        h = h + jax.nn.gelu(conv(z, p["w%d" % i], p["b%d" % i], dil))
    return jax.nn.log_softmax(h @ p["out_w"] + p["out_b"], -1)   # [B, T, 27], 0 = blank

def ctc(logp, L, pad):
    import optax, jax.numpy as jnp
    return -optax.ctc_loss(logp, jnp.zeros(logp.shape[:2]), L, pad, blank_id=0)   # log p(keys | swipe)

def traces_and_folds(traces, store, dump):
    """Every trace (JSON lines), and each one's fold: its user's in DUMP (-1 for a user DUMP lacks)."""
    D = load(dump)
    lines, _ = dump_traces(traces, store, D, dump)
    fold_of = {}
    for line, k in zip(lines, D["sfold"]):
        fold_of[json.loads(line)["user"]] = int(k)
    every = [l for l in gzip.open(traces, "rt")]
    return every, np.array([fold_of.get(json.loads(l)["user"], -1) for l in every])

def train(traces, store, dump, fold, out):
    import jax, jax.numpy as jnp, optax
    every, folds = traces_and_folds(traces, store, dump)
    keep = [i for i in range(len(every)) if folds[i] != fold and json.loads(every[i]).get("word")]
    held = [i for i in range(len(every)) if folds[i] == fold][:2000]
    def prepare(idx):
        rs = [resample(every[i]) for i in idx]
        L, pad = labels([json.loads(every[i])["word"] for i in idx])
        return np.stack([r[0] for r in rs]), np.stack([r[1] for r in rs]), np.array([r[2] for r in rs]), L, pad
    R, S, Q, L, PAD = prepare(keep)
    ok = PAD.sum(1) < LMAX   # a word with keys
    R, S, Q, L, PAD = R[ok], S[ok], Q[ok], L[ok], PAD[ok]
    print("fold %d: %d training swipes, %d held-out (greedy check)" % (fold, len(R), len(held)), file=sys.stderr, flush=True)
    params = init(jax.random.PRNGKey(fold), 5 + NK)
    steps = EPOCHS * (len(R) // BATCH)
    opt = optax.adamw(optax.warmup_cosine_decay_schedule(0.0, LR, min(300, steps // 4), steps), weight_decay=1e-4)
    state = opt.init(params)
    @jax.jit
    def step(params, state, x, L, pad):
        loss, g = jax.value_and_grad(lambda p: -ctc(forward(p, x), L, pad).mean())(params)
        g = optax.clip_by_global_norm(5.0).update(g, None)[0]
        upd, state = opt.update(g, state, params)
        return optax.apply_updates(params, upd), state, loss
    rng = np.random.default_rng(fold)
    for e in range(EPOCHS):
        order = rng.permutation(len(R)); tot, t0 = 0.0, time.time()
        for b in range(len(R) // BATCH):
            j = order[b * BATCH:(b + 1) * BATCH]
            x = features(augment(R[j], rng), S[j], Q[j])
            params, state, loss = step(params, state, x, L[j], PAD[j])
            tot += float(loss)
        print("fold %d epoch %d: loss %.3f (%.0f s)" % (fold, e, tot / (len(R) // BATCH), time.time() - t0), file=sys.stderr, flush=True)
    if held:
        Rh, Sh, Qh, Lh, Ph = prepare(held)
        lp = np.asarray(forward(params, features(Rh, Sh, Qh)))
        print("fold %d: held-out mean log p(true keys) %.3f" % (fold, float(np.mean(np.asarray(ctc(lp, Lh, Ph))))), file=sys.stderr)
    np.savez(out, **{k: np.asarray(v) for k, v in params.items()})

def rows(traces, store, dump, prefix):
    import jax
    D = load(dump)
    lines, _ = dump_traces(traces, store, D, dump)
    words = open(dump + ".words").read().split("\n")
    nets = {k: {n: v for n, v in np.load("%s-%d.npz" % (prefix, k)).items()} for k in sorted(set(D["sfold"]))
            if os.path.exists("%s-%d.npz" % (prefix, k))}   # a fold without its network: its rows score 0 (a partial check)
    fwd = jax.jit(forward)
    rs = [resample(l) for l in lines]
    R, S, Q = np.stack([r[0] for r in rs]), np.stack([r[1] for r in rs]), np.array([r[2] for r in rs])
    logp = np.zeros((len(lines), T, NK + 1), np.float32)
    for k, net in nets.items():
        idx = np.flatnonzero(D["sfold"] == k)
        for a in range(0, len(idx), 512):
            j = idx[a:a + 512]
            logp[j] = np.asarray(fwd(net, features(R[j], S[j], Q[j])))
    n = len(D["sample"]); out = np.zeros((n, 3), np.float32)
    score = jax.jit(ctc)
    CH = 8192
    for a in range(0, n, CH):
        b = min(n, a + CH)
        L, pad = labels(words[a:b])
        g = D["gid"][a:b]
        lp = logp[g]
        if b - a < CH:   # one compiled shape
            L = np.pad(L, ((0, CH - (b - a)), (0, 0))); pad = np.pad(pad, ((0, CH - (b - a)), (0, 0)), constant_values=1)
            lp = np.pad(lp, ((0, CH - (b - a)), (0, 0), (0, 0)))
        s = np.asarray(score(lp, L, pad))[:b - a]
        nk = LMAX - pad[:b - a].sum(1)
        s = np.where((nk > 0) & np.isfinite(s), np.maximum(s, -300), -300)
        out[a:b, 0] = s; out[a:b, 1] = s / np.maximum(nk, 1)
        if a % (CH * 20) == 0: print("rows %d of %d" % (a, n), file=sys.stderr, flush=True)
    best = np.maximum.reduceat(out[:, 0], D["starts"])
    out[:, 2] = out[:, 0] - best[D["gid"]]
    scored = np.isin(D["fold"], list(nets))
    out[~scored] = 0
    np.save(dump + ".shape.npy", out)
    first = ranks(out[:, 0], D)
    has = D["hasTruth"] & np.isin(D["sfold"], list(nets))
    print("alone (folds %s): the true word first in %.2f%%, in the top 4 in %.2f%% of the %d swipes whose shortlist holds it"
          % (sorted(nets), 100 * (first[has] == 0).mean(), 100 * (first[has] < 4).mean(), has.sum()))

def encode(params):
    """The encoding SwipeShapeNetwork(encoded:) reads (little-endian): "LXSN", version 1, steps,
    inputs, width, classes, longest key path (UInt16), kernel and block count (UInt8), each
    block's dilation (UInt8), then the Float32 arrays in order."""
    import struct
    width = params["in_b"].shape[0]
    out = b"LXSN" + struct.pack("<BHHHHHBB", 1, T, 5 + NK, width, NK + 1, LMAX, KERNEL, len(BLOCKS)) + bytes(BLOCKS)
    names = ["in_w", "in_b"] + [n % i for i in range(len(BLOCKS)) for n in ("w%d", "b%d", "g%d", "n%d")] + ["out_w", "out_b"]
    for n in names:
        out += np.ascontiguousarray(params[n], dtype="<f4").tobytes()
    return out

def swift(model, out):
    """SwipeShapeNetwork+Fitted.swift: the network of MODEL (`train` with FOLD 5) as Base64."""
    import base64, textwrap
    p = dict(np.load(model))
    b64 = base64.b64encode(encode(p)).decode()
    width = p["in_b"].shape[0]
    n = sum(v.size for v in p.values())
    src = """// Generated by Tests/Bench/swipe-rerank/shapenet.py swift (see its README): the fitted shape network,
// Base64 of the encoding SwipeShapeNetwork(encoded:) reads. Trained on every trace of the
// development set (`EPOCHS=%d WIDTH=%d shapenet.py train … 5`): %d steps, %d channels, blocks of
// dilations %s, %d weights. Do not edit by hand; retrain instead.

extension SwipeShapeNetwork {
    /// The network compiled into the library (a damaged one fails the tests, never a front end's
    /// decode: `SwipeShapeNetworkTests` decodes it).
    public static let fitted: SwipeShapeNetwork = {
        do { return try SwipeShapeNetwork(base64: encodedFitted) } catch { preconditionFailure("the compiled-in shape network is damaged: \\(error)") }
    }()

    static let encodedFitted = "%s"
}
""" % (EPOCHS, width, T, width, ", ".join(map(str, BLOCKS)), n, b64)
    open(out, "w").write(src)

def fixture(out):
    """A tiny random network (8 channels, seed 3) and one hand-drawn swipe with times, with the
    network's log-probabilities and CTC log-likelihoods by JAX/optax: SwipeShapeNetworkTests checks
    the Swift inference against them."""
    import jax, base64
    global WIDTH
    WIDTH = 8
    p = {k: np.asarray(v, np.float32) for k, v in init(jax.random.PRNGKey(3), 5 + NK).items()}
    rng = np.random.default_rng(3)
    for k in p:   # biases, gains and shifts away from their initial 0 and 1
        if k[0] in "bgn" or k.endswith("_b"): p[k] = p[k] + rng.normal(0, 0.3, p[k].shape).astype(np.float32)
    # The swipe: "the" on QWERTY (rows 1.5 key widths tall), drawn by hand, with uneven times.
    P = np.array([[4.4, 0.8], [4.6, 0.8], [5.2, 1.6], [5.8, 2.1], [6.1, 2.2], [5.0, 1.4], [3.9, 0.9], [2.6, 0.7], [2.4, 0.8]])
    t = np.array([0, 18, 40, 61, 90, 121, 140, 171, 190], float)
    R, speed = resample_points(P, t)
    x = features(R[None], speed[None], np.array([1.5]))
    lp = np.asarray(forward(p, x))[0]
    words = ["the", "they", "tge", "thr", "yes", "q"]
    L, pad = labels(words)
    ll = np.asarray(ctc(np.repeat(lp[None], len(words), 0), L, pad))
    json.dump({"network": base64.b64encode(encode(p)).decode(), "points": P.tolist(), "times": t.tolist(), "rowHeightRatio": 1.5,
               "logProbabilities": lp.reshape(-1).tolist(), "words": words, "logLikelihoods": ll.tolist()}, open(out, "w"), indent=1)

if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "train":
        train(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
    elif mode == "swift":
        swift(sys.argv[2], sys.argv[3])
    elif mode == "fixture":
        fixture(sys.argv[2])
    else:
        rows(*sys.argv[2:6])
