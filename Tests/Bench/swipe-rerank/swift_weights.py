"""python3 swift_weights.py FIT_OUTPUT NAME SET KIND TIMED: the Swift declaration of SwipeReranker.NAME
from the output of `mlp.py fit` (KIND nl or ctx+nl, TIMED 0 or 1; SET names the feature file in the doc comment)."""
import sys, re, textwrap
path, name, setname, kind, timed = sys.argv[1:6]
lines = open(path).read().splitlines()
def arr(s): return [x.strip() for x in s.strip().strip('[],').split(',') if x.strip()]
lin = next(arr(l[len('LINEAR '):]) for l in lines if l.startswith('LINEAR '))
i = lines.index(next(l for l in lines if l.startswith('HIDDEN_W')))
hidden = []
for l in lines[i+1:]:
    if l.startswith('HIDDEN_B'): break
    hidden.append(arr(l))
hb = next(arr(l[len('HIDDEN_B '):]) for l in lines if l.startswith('HIDDEN_B '))
out = next(arr(l[len('OUTPUT '):]) for l in lines if l.startswith('OUTPUT '))
def block(vals, indent):
    return textwrap.fill(', '.join(vals) + ',', width=100, initial_indent=' ' * indent, subsequent_indent=' ' * indent)
doc = {"withoutContext": "Fitted without context (every swipe of the development set; `mlp.py fit nl 32 16 1e-4 800\n    /// %s`, 2026-11-26, late)." % setname,
       "withContext": "Fitted with each swipe's sentence before it as context (`mlp.py fit ctx+nl 32 16 1e-4 800\n    /// %s`, 2026-11-26, late)." % setname,
       "withoutContextTimed": "Fitted without context on swipes with times (`mlp.py fit nl 32 16 1e-4 800 %s`,\n    /// 2026-11-26, late)." % setname,
       "withContextTimed": "Fitted with context on swipes with times (`mlp.py fit ctx+nl 32 16 1e-4 800 %s`,\n    /// 2026-11-26, late)." % setname}[name]
s = "    /// " + doc + "\n"
s += "    public static let %s = SwipeReranker(weights: [\n%s\n    ], hidden: HiddenLayer(weights: [\n" % (name, block(lin, 8))
for h in hidden: s += "        [\n%s\n        ],\n" % block(h, 12)
s += "    ], biases: [\n%s\n    ], output: [\n%s\n    ])%s)\n" % (block(hb, 8), block(out, 8), ", timed: true" if timed == "1" else "")
print(s, end="")
