import Foundation
import Synchronization

/// A package file's body that fails — and so fails the page's load (see `SchemeStreamPump`) — if the
/// file on disk is not, from before its first byte until after its last, the very file whose SHA-256
/// ``FileDigestCache`` checked: a file swapped in (another inode) or written to (a new change
/// time) between the check and the end of the body is not served as signed. Two `stat`s per body;
/// nothing is hashed again.
enum UnchangedFileBody {
    static func stream(path: String, offset: UInt64, length: UInt64,
                       checked identity: FileDigestCache.Identity) -> AsyncThrowingStream<Data, any Error> {
        let reader = FileRangeReader(path: path, offset: offset, length: length)
        let started = Mutex(false)
        return AsyncThrowingStream(unfolding: {
            let first = started.withLock { wasStarted in
                defer { wasStarted = true }
                return !wasStarted
            }
            if first { try check(path, identity) }
            if let chunk = try reader.next() { return chunk }
            try check(path, identity)
            return nil
        })
    }

    private static func check(_ path: String, _ identity: FileDigestCache.Identity) throws(PackageError) {
        var info = stat()
        guard stat(path, &info) == 0, FileDigestCache.Identity(info) == identity else {
            throw .hashMismatch(path: path)
        }
    }
}
