import LexiforgeFormat

/// Where real swipes start and end around their first and last keys, key by key.
///
/// People do not start a swipe on the centre of its first key, nor end it on the centre of the
/// last, and how they miss depends on the key: on the 20,000 real swipes of the development set
/// (docs/swipe.md) a swipe starting on a top-row key starts about 0.1 key widths higher than one
/// starting on the middle row (both read ``SwipeDecoderOptions/verticalOffset`` higher), and one
/// ending on "h" ends 0.3 key widths to its right. ``terms(start:end:first:last:)`` measures a
/// word's ends against where its own keys are usually met: both context forests read the
/// result (``SwipeReranker/features(of:lm:fit:meanFit:timed:shape:profile:)``).
///
/// The table is position-based: a layout's key takes the offsets of the QWERTY key at the same
/// place (within a quarter of a key width, rows scaled to the layout's height), so QWERTZ's "z"
/// takes QWERTY's "y"; a key no QWERTY key lies near (QWERTZ's "ü") takes the mean over all keys.
public struct SwipeEndKeyOffsets: Sendable {
    /// The mean offset of a point from a key's centre (key widths, y down) and its variance on
    /// each axis.
    public struct Offset: Sendable, Equatable {
        public var dx, dy, varianceX, varianceY: Double
        public init(_ dx: Double, _ dy: Double, _ varianceX: Double, _ varianceY: Double) {
            self.dx = dx
            self.dy = dy
            self.varianceX = varianceX
            self.varianceY = varianceY
        }

        /// The squared distance of the offset `(x, y)` from this mean, raw and with each axis
        /// divided by its variance.
        func miss(_ x: Double, _ y: Double) -> (squared: Double, standardized: Double) {
            let ex = x - dx, ey = y - dy
            return (ex * ex + ey * ey, ex * ex / varianceX + ey * ey / varianceY)
        }
    }

    /// Per key index of the layout: the offsets of swipes starting and ending there.
    public let start: [Offset], end: [Offset]
    /// Per key index of the layout: the key's centre.
    public let centres: [SwipePoint]

    /// The fitted table placed on `layout`'s keys.
    public init(layout: SwipeLayout) {
        let reference = (try? SwipeLayout.qwerty.withRowHeightRatio(layout.rowHeightRatio)) ?? SwipeLayout.qwerty
        func near(_ key: SwipeLayout.Key) -> Character? {
            var best: (Character, Double)? = nil
            for r in reference.keys {
                let dx = r.centre.x - key.centre.x, dy = r.centre.y - key.centre.y
                let d = dx * dx + dy * dy
                if d <= 0.0625, d < best?.1 ?? .infinity { best = (r.letter, d) }
            }
            return best?.0
        }
        let letters = layout.keys.map(near)
        start = letters.map { $0.flatMap { Self.fittedStart[$0] } ?? Self.fittedStartOther }
        end = letters.map { $0.flatMap { Self.fittedEnd[$0] } ?? Self.fittedEndOther }
        centres = layout.keys.map(\.centre)
    }

    /// For a word whose first and last keys have indices `first` and `last`: the swipe's first
    /// point `start` and last point `end` as offsets from those keys' centres, and each offset's
    /// squared distance from where swipes usually start on that key (or end on that key), raw and
    /// standardized.
    public func terms(start a: SwipePoint, end b: SwipePoint, first: Int, last: Int) -> SwipeCandidate.EndKeyOffsets {
        let sx = a.x - centres[first].x, sy = a.y - centres[first].y, ex = b.x - centres[last].x, ey = b.y - centres[last].y
        let s = start[first].miss(sx, sy), e = end[last].miss(ex, ey)
        return SwipeCandidate.EndKeyOffsets(startX: sx, startY: sy, startMiss: s.squared, startMissStandardized: s.standardized,
                                            endX: ex, endY: ey, endMiss: e.squared, endMissStandardized: e.standardized)
    }

    // Fitted on the 20,000 real swipes of the development set, 2026-12-07
    // (Tests/Bench/swipe-rerank/keyoffsets.py: DUMP OUT.npz swift, on `make bench`'s dump.tsv;
    // the swipes' true words, each key's mean and variance shrunk toward all keys' as n / (n + 30)).
    // `fittedStart`: per QWERTY letter, where swipes of words starting on that key start;
    // `fittedEnd`: where swipes of words ending there end; the `Other`s: over all keys.
    public static let fittedStart: [Character: Offset] = [
        "q": Offset(0.0704, 0.0039, 0.0562, 0.0481),
        "w": Offset(0.0688, -0.0321, 0.0619, 0.0596),
        "e": Offset(-0.0060, -0.0916, 0.0528, 0.0594),
        "r": Offset(0.0891, 0.0126, 0.0596, 0.0463),
        "t": Offset(-0.0316, -0.0692, 0.0666, 0.0502),
        "y": Offset(-0.0475, 0.0189, 0.0847, 0.0446),
        "u": Offset(-0.0184, -0.0891, 0.0774, 0.0459),
        "i": Offset(0.0373, -0.1202, 0.0549, 0.0538),
        "o": Offset(-0.0179, -0.0899, 0.0700, 0.0664),
        "p": Offset(0.0208, -0.0514, 0.0536, 0.0573),
        "a": Offset(-0.0848, -0.0134, 0.0649, 0.0550),
        "s": Offset(0.0022, 0.0325, 0.0539, 0.0420),
        "d": Offset(0.0316, 0.0634, 0.0575, 0.0388),
        "f": Offset(0.0208, 0.0612, 0.0521, 0.0374),
        "g": Offset(0.0189, 0.0700, 0.0593, 0.0381),
        "h": Offset(-0.0227, 0.0514, 0.0671, 0.0402),
        "j": Offset(-0.0168, 0.0486, 0.0560, 0.0403),
        "k": Offset(-0.0256, 0.0266, 0.0421, 0.0503),
        "l": Offset(0.0781, 0.0267, 0.0666, 0.0529),
        "z": Offset(0.0726, -0.0056, 0.0665, 0.0434),
        "x": Offset(-0.0029, -0.0141, 0.0566, 0.0449),
        "c": Offset(0.0249, 0.0240, 0.0635, 0.0460),
        "v": Offset(-0.0013, 0.0327, 0.0519, 0.0393),
        "b": Offset(-0.0382, 0.0366, 0.0661, 0.0478),
        "n": Offset(-0.0436, 0.0231, 0.0577, 0.0458),
        "m": Offset(-0.0103, -0.0242, 0.0665, 0.0580),
    ]
    public static let fittedStartOther = Offset(0.0020, -0.0113, 0.0640, 0.0529)
    public static let fittedEnd: [Character: Offset] = [
        "q": Offset(0.0752, 0.0216, 0.2195, 0.1541),
        "w": Offset(0.0970, 0.0560, 0.2266, 0.1101),
        "e": Offset(-0.0520, -0.0310, 0.2091, 0.1563),
        "r": Offset(0.2325, 0.0251, 0.3280, 0.0919),
        "t": Offset(0.1274, -0.0837, 0.2645, 0.1354),
        "y": Offset(0.1078, -0.0989, 0.2959, 0.1430),
        "u": Offset(-0.3191, 0.0468, 0.2523, 0.0844),
        "i": Offset(0.0200, -0.0168, 0.0881, 0.1360),
        "o": Offset(0.1010, -0.0891, 0.1590, 0.1463),
        "p": Offset(-0.0025, -0.0834, 0.1139, 0.1740),
        "a": Offset(-0.0342, 0.0407, 0.1442, 0.0829),
        "s": Offset(-0.0018, 0.1335, 0.1712, 0.1112),
        "d": Offset(0.0623, 0.1466, 0.2010, 0.1261),
        "f": Offset(-0.1092, 0.1674, 0.2392, 0.0992),
        "g": Offset(-0.1383, -0.0620, 0.1874, 0.1389),
        "h": Offset(0.2624, 0.1082, 0.2216, 0.1482),
        "j": Offset(0.0384, 0.0074, 0.2063, 0.1331),
        "k": Offset(0.0130, -0.0165, 0.2219, 0.1441),
        "l": Offset(0.1237, 0.1065, 0.1682, 0.1432),
        "z": Offset(0.0213, 0.0740, 0.1947, 0.1246),
        "x": Offset(0.0934, 0.0973, 0.2956, 0.1207),
        "c": Offset(0.0170, 0.1531, 0.2262, 0.1254),
        "v": Offset(0.0429, 0.0849, 0.2084, 0.1430),
        "b": Offset(0.0261, 0.1073, 0.1905, 0.1218),
        "n": Offset(-0.0789, 0.1959, 0.2063, 0.1473),
        "m": Offset(0.0080, 0.1510, 0.1834, 0.1316),
    ]
    public static let fittedEndOther = Offset(0.0176, 0.0364, 0.2241, 0.1419)
}
