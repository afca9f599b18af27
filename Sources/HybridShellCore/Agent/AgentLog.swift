/// A bounded log read with cursors (`console(since)`, `events(since)`, `native_calls(since)`):
/// every entry gets the next sequence number; `since(n)` gives the entries after `n` and the cursor
/// to pass next time. The oldest entries go when the log is full, and a reader is told how many it
/// missed.
public struct AgentLog<Entry: Sendable>: Sendable {
    public let capacity: Int
    private var entries: [(sequence: Int, entry: Entry)] = []
    private var start = 0
    public private(set) var lastSequence = 0

    public init(capacity: Int = 1000) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    @discardableResult
    public mutating func append(_ entry: Entry) -> Int {
        lastSequence += 1
        if entries.count - start == capacity {
            start += 1
            // Compact now and then instead of shifting the array on every append.
            if start >= capacity {
                entries.removeFirst(start)
                start = 0
            }
        }
        entries.append((lastSequence, entry))
        return lastSequence
    }

    public struct Page: Sendable {
        public let entries: [(sequence: Int, entry: Entry)]
        /// What to pass as `since` next time.
        public let nextCursor: Int
        /// Entries after the cursor that were dropped before this read (the log was full).
        public let missed: Int
    }

    public func since(_ cursor: Int, limit: Int = .max) -> Page {
        let kept = entries[start...]
        let firstKept = kept.first?.sequence ?? lastSequence + 1
        let missed = max(0, firstKept - 1 - min(cursor, lastSequence))
        let after = kept.filter { $0.sequence > cursor }.prefix(limit)
        return Page(entries: Array(after), nextCursor: after.last?.sequence ?? max(min(cursor, lastSequence), firstKept - 1), missed: missed)
    }
}
