import Foundation

/// A byte range of a file as a pull-based chunk sequence: each chunk is read only when the reader
/// asks for it, so a slow page never makes the file pile up in memory.
public enum FileChunks {
    public static let chunkSize = 256 << 10

    public static func stream(path: String, offset: UInt64, length: UInt64) -> AsyncThrowingStream<Data, any Error> {
        let reader = FileRangeReader(path: path, offset: offset, length: length)
        return AsyncThrowingStream(unfolding: { try reader.next() })
    }
}

/// Reads one range sequentially with `pread`; closes the file at the end or when released.
final class FileRangeReader: @unchecked Sendable {
    private let path: String
    private var descriptor: Int32 = -1
    private var position: UInt64
    private var remaining: UInt64
    // Only ever called by one iterator at a time (AsyncThrowingStream(unfolding:) awaits each call).
    private let lock = NSLock()

    init(path: String, offset: UInt64, length: UInt64) {
        self.path = path
        self.position = offset
        self.remaining = length
    }

    func next() throws -> Data? {
        lock.lock()
        defer { lock.unlock() }
        guard remaining > 0 else { closeFile(); return nil }
        if descriptor < 0 {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        }
        let wanted = Int(min(remaining, UInt64(FileChunks.chunkSize)))
        var chunk = Data(count: wanted)
        let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(position)) }
        guard count > 0 else {
            closeFile()
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])  // the file shrank
        }
        chunk.removeSubrange(count...)
        position += UInt64(count)
        remaining -= UInt64(count)
        return chunk
    }

    private func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { closeFile() }
}
