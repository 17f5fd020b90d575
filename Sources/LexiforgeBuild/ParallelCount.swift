import Foundation
import LexiforgeCorpus
import LexiforgeNgrams
import LexiforgeText

/// Reading, tokenizing and counting corpora on several threads, with the same result as one.
///
/// The calling thread reads each file in order (gunzip, UTF-8, lines, Gutenberg boilerplate:
/// ``CorpusReader``) and cuts the lines into batches of about ``batchBytes`` at paragraph breaks
/// (a line of nothing but spaces, tabs and CR), where ``SentenceSplitter`` starts afresh, so no
/// sentence spans two batches and a batch splits exactly as it would inside the whole file. A
/// batch never spans two files. `threads` workers take batches from a bounded queue (so memory
/// does not follow corpus size), split and tokenize them and count into counters of their own;
/// ``NgramCounter/finish(_:threads:)`` then sorts each counter's tables in parallel and merges
/// them. Counts are sums, words are ranked by count and bytes, tables sorted by id tuple, so the
/// store is byte-identical for any thread count.
///
/// A paragraph longer than ``longParagraphBytes`` (a text without blank lines) cannot be cut: the
/// reading thread splits and counts it itself, line by line as it arrives, so memory stays
/// bounded there too (such text is counted on one thread).
enum ParallelCount {
    /// About 1 MiB of text per batch (small enough to share a 10 MB file fairly among threads). `LEXIFORGE_BATCH_BYTES` sets it (tests cut tiny corpora into
    /// many batches with it); the store does not depend on it, only which part counts what does.
    static let batchBytes: Int = {
        if let text = ProcessInfo.processInfo.environment["LEXIFORGE_BATCH_BYTES"], let value = Int(text), value > 0 { return value }
        return 1 << 20
    }()
    /// Four batches: 4 MiB by default (a line can be that long: ``CorpusReader/maxLineBytes``).
    static var longParagraphBytes: Int { 4 * batchBytes }

    /// Lines of one file, laid end to end.
    struct Batch: Sendable {
        var file: Int
        var bytes: [UInt8] = []
        var ends: [Int] = []

        init(file: Int) {
            self.file = file
            bytes.reserveCapacity(min(ParallelCount.batchBytes, 1 << 22) + (1 << 12))
        }

        var isEmpty: Bool { ends.isEmpty }

        mutating func append(_ line: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: line)
            ends.append(bytes.count)
        }

        /// Calls `body` with each line from line `first` on.
        func forEachLine(from first: Int = 0, to last: Int? = nil, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            bytes.withUnsafeBufferPointer { all in
                for i in first..<(last ?? ends.count) {
                    body(UnsafeBufferPointer(rebasing: all[(i == 0 ? 0 : ends[i - 1])..<ends[i]]))
                }
            }
        }

        /// The first `lines` lines as a batch of their own.
        func prefix(lines: Int) -> Batch {
            var head = Batch(file: file)
            head.ends = Array(ends[0..<lines])
            head.bytes = Array(bytes[0..<(lines == 0 ? 0 : ends[lines - 1])])
            return head
        }
    }

    /// A bounded first-in first-out queue of batches between the reader and the workers.
    final class Queue: @unchecked Sendable {
        private let condition = NSCondition()
        private var items: [Batch] = []
        private var head = 0
        private var closed = false
        private let capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        func put(_ batch: Batch) {
            condition.lock()
            while items.count - head >= capacity { condition.wait() }
            items.append(batch)
            condition.broadcast()
            condition.unlock()
        }

        /// The next batch, nil once the queue is closed and empty.
        func take() -> Batch? {
            condition.lock()
            defer { condition.unlock() }
            while head == items.count && !closed { condition.wait() }
            guard head < items.count else { return nil }
            let batch = items[head]
            head += 1
            if head > 64 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            condition.broadcast()
            return batch
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// One counting thread's state; read only after the thread finished.
    final class Worker: @unchecked Sendable {
        let counter: NgramCounter
        private var splitter: SentenceSplitter
        /// Sentences cut for length, per file index.
        var cuts: [Int: Int] = [:]

        init(order: Int, text: TextOptions) {
            counter = NgramCounter(order: order)
            splitter = SentenceSplitter(options: text)
        }

        func run(_ queue: Queue, tokens: LockedCount) {
            while let batch = queue.take() {
                let before = splitter.cutSentences
                let tokensBefore = counter.tokens
                let counter = self.counter
                batch.forEachLine { line in
                    splitter.feed(line: line) { sentence in counter.addSentence(count: sentence.count) { sentence[$0] } }
                }
                splitter.finish { sentence in counter.addSentence(count: sentence.count) { sentence[$0] } }
                if splitter.cutSentences > before { cuts[batch.file, default: 0] += splitter.cutSentences - before }
                tokens.add(counter.tokens - tokensBefore)
            }
        }
    }

    /// A shared running total for progress lines.
    final class LockedCount: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add(_ n: Int) { lock.lock(); value += n; lock.unlock() }
        var current: Int { lock.lock(); defer { lock.unlock() }; return value }
    }

    /// Whether `line` is a paragraph break for every tokenizer: empty, or spaces, tabs and CR only.
    static func isParagraphBreak(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in line where b != 0x20 && b != 0x09 && b != 0x0D { return false }
        return true
    }

    /// Reads `paths` as ``CorpusSentences/read(_:fileDone:emit:)`` does (same checks, same
    /// errors and warnings, every file read even after one fails) and counts them on `threads`
    /// threads. With `part` (`index` of `of`), only the batches (and long paragraphs) numbered
    /// `index` modulo `of`, in reading order over all files, are counted: the parts of one corpus
    /// add up to the whole. Returns the counters of the threads (``NgramCounter/finish(_:threads:)``
    /// makes them one).
    static func count(_ paths: [String], reader: CorpusSentences, order: Int, threads: Int,
                      part: (index: Int, of: Int)? = nil, bound: (NgramCounter) -> Void = { _ in },
                      fileDone: (CorpusFileSummary, Int) -> Void) throws -> ([NgramCounter], CorpusSentences.Result) {
        var options = reader.corpus
        options.treebankText = true
        let queue = Queue(capacity: 2 * threads)
        let workers = (0..<threads).map { _ in Worker(order: order, text: reader.text) }
        for worker in workers { bound(worker.counter) }
        let tokens = LockedCount()
        let group = DispatchGroup()
        for worker in workers {
            group.enter()
            let thread = Thread {
                worker.run(queue, tokens: tokens)
                group.leave()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }

        // The reading thread's own counter and splitter, for paragraphs too long to batch.
        let own = NgramCounter(order: order)
        bound(own)
        var splitter = SentenceSplitter(options: reader.text)
        var ownCuts = [Int](repeating: 0, count: paths.count)
        var summaries: [(file: Int, summary: CorpusFileSummary)] = []
        var errors: [String] = []
        var batchNumber = -1
        /// Numbers the next batch; whether this part counts it.
        func takeNext() -> Bool {
            batchNumber += 1
            guard let part else { return true }
            return batchNumber % part.of == part.index
        }
        var countingInline = true
        func send(_ batch: Batch) { if takeNext() { queue.put(batch) } }
        func countOwn(_ line: UnsafeBufferPointer<UInt8>) {
            guard countingInline else { return }
            splitter.feed(line: line) { sentence in own.addSentence(count: sentence.count) { sentence[$0] } }
        }
        for (index, path) in paths.enumerated() {
            if let problem = NgramBuild.checkInput(path) { errors.append(problem); continue }
            var batch = Batch(file: index)
            var paragraphLine = 0      // the first line of the paragraph being collected
            var paragraphByte = 0
            var inline = false         // counting a long paragraph on this thread
            let cutBefore = splitter.cutSentences
            do {
                let summary = try CorpusReader.readLines(of: path, options: options) { line in
                    let isBreak = isParagraphBreak(line)
                    if inline {
                        countOwn(line)
                        if isBreak { inline = false }
                        return
                    }
                    batch.append(line)
                    if isBreak {
                        if batch.bytes.count >= batchBytes {
                            send(batch)
                            batch = Batch(file: index)
                        }
                        paragraphLine = batch.ends.count
                        paragraphByte = batch.bytes.count
                    } else if batch.bytes.count - paragraphByte >= longParagraphBytes {
                        if paragraphLine > 0 { send(batch.prefix(lines: paragraphLine)) }
                        countingInline = takeNext()
                        batch.forEachLine(from: paragraphLine) { countOwn($0) }
                        batch = Batch(file: index)
                        (paragraphLine, paragraphByte, inline) = (0, 0, true)
                    }
                }
                if inline {
                    if countingInline { splitter.finish { sentence in own.addSentence(count: sentence.count) { sentence[$0] } } }
                } else if !batch.isEmpty {
                    send(batch)
                }
                ownCuts[index] += splitter.cutSentences - cutBefore
                errors += ModelBuild.shaMismatches([(path, summary.sha256)], expected: reader.expectedSHA256)
                summaries.append((index, summary))
                fileDone(summary, tokens.current + own.tokens)
            } catch let error as CorpusError {
                errors.append(error.description)
                splitter = SentenceSplitter(options: reader.text)
            } catch {
                queue.close()
                group.wait()
                throw error
            }
        }
        queue.close()
        group.wait()

        var result = CorpusSentences.Result()
        for (index, summary) in summaries {
            let cuts = ownCuts[index] + workers.reduce(0) { $0 + ($1.cuts[index] ?? 0) }
            result.warnings += summary.warnings(cutSentences: cuts)
            result.files.append(summary)
        }
        if reader.strict { errors += result.warnings.map { $0 + " (an error under --strict)" } }
        if !errors.isEmpty { throw PipelineError(errors) }
        return (workers.map(\.counter) + (own.tokens > 0 ? [own] : []), result)
    }
}
