"""How the words before each swipe read, over all of them: per-swipe extras for feats.py (EXTRA).

    lexiforge export arpa Artifacts/en_US-keyboard.sqlite -o en.arpa
    python3 contextfit.py TRACES.jsonl.gz STORE.sqlite en.arpa DUMP OUT.npz

The decoder's context fit (`NgramPredictor.contextFit(of:)`, the dump's `fit`) is log10 p of the
last word before the swipe after the ones before it: one word's worth of evidence that the prompt
is a sentence and not a list of unrelated words. OUT holds, per in-dictionary swipe of DUMP (its
`sample` order), `meanfit`, the mean over every word before the swipe of log10 p(word | the words
before it, from <s>) by PyPI's kenlm on the store's exported model (context words matched as the
decoder matches them: as typed, lower case, capitalized, upper case; not respelled as the decoder
commits them, so "im" stays unknown where the decoder reads "I'm"), `nctx`, the number of those
words, and `oracle`: 1 when the prompt has four words (the development set's lists of unrelated
words), 0 for the other prompts (sentences), -1 for a prompt's first word. The oracle is not
something a decoder can know; it bounds what telling lists from sentences could give.

feats.py adds each array as a feature `x:NAME` when EXTRA=OUT.npz (an augmented dump's copies,
two a swipe, read their swipe's values). The in-dictionary swipes are the traces whose word's
letters are a word of the store's swipe features, checked against DUMP's truth rows: a trace the
decoder skipped (whose word the dump's next truth row does not match) is dropped.
"""
import json, sys, numpy as np, kenlm
from common import load, dump_traces

traces_path, store, arpa, dump, out = sys.argv[1:6]
m = kenlm.Model(arpa)
D = load(dump)
lines, skipped = dump_traces(traces_path, store, D, dump)
kept = [json.loads(l) for l in lines]

def spell(w):
    return next((v for v in (w, w.lower(), w.capitalize(), w.upper()) if v in m), w)
meanfit, nctx, oracle = [], [], []
for t in kept:
    prompt = t["sentence"].replace(" ", "_").split("_")
    at = next(j for j, w in enumerate(prompt) if w.lower() == t["word"].lower())
    context = [spell(w) for w in prompt[:at]]
    nctx.append(len(context))
    oracle.append(-1.0 if not context else float(len(prompt) == 4))
    scores = [s for s, _, _ in m.full_scores(" ".join(context), bos=True, eos=False)] if context else [0.0]
    meanfit.append(float(np.mean(scores)))
np.savez(out, meanfit=np.array(meanfit), nctx=np.array(nctx, float), oracle=np.array(oracle))
print("%d swipes (%d traces skipped by the decoder), %d after a list, %d after a sentence, %d first words"
      % (len(kept), skipped, oracle.count(1.0), oracle.count(0.0), oracle.count(-1.0)))
