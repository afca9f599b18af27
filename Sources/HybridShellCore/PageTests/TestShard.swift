/// `--shard I/N`: the I-th of N deterministic slices of the sorted page list (pages I, I+N, I+2N, …
/// counting from 1), so shards stay balanced as pages are added.
package struct TestShard: Sendable, Equatable {
    public let index: Int
    public let count: Int

    public init(parsing text: String) throws(ShellError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidArgument("--shard must look like 1/4 (this shard / number of shards), got \(JSONValue.quoted(text))")
        }
        guard count >= 1 else {
            throw .invalidArgument("--shard \(text): the number of shards must be at least 1")
        }
        guard (1...count).contains(index) else {
            throw .invalidArgument("--shard \(text): the shard number must be between 1 and \(count)")
        }
        self.index = index
        self.count = count
    }

    public func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
