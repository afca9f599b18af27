
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Whether a file on disk still has the SHA-256 its signed manifest lists, checked before its first
/// byte is served and then remembered under the file's identity — device, inode, size, and the
/// modification and status-change times (a write changes both; `touch -d` can reset the first, not
/// the second) — so the hot path is one `stat`, and any edit makes the next request hash again.
final class FileDigestCache: Sendable {
    struct Identity: Hashable {
        let device: UInt64, inode: UInt64, size: Int64
        let modified: Int64, changed: Int64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
        }
    }

    enum Outcome: Equatable {
        /// The file matches; this is the identity that was checked.
        case matches(Identity)
        /// The file differs; `isNew` is false when this same file was already reported.
        case differs(reason: String, isNew: Bool)
    }

    private struct Key: Hashable { let path: String; let sha256: String; let identity: Identity }
    /// Per key: whether it matched. At most one entry per path is kept (the latest identity).
    private let known = Mutex<[String: (key: Key, matches: Bool)]>([:])
    /// How many files were hashed (each check that was not answered from the cache).
    let hashes = Atomic<Int>(0)

    /// Checks `path` (a regular file inside a version) against the manifest's `size` and `sha256`.
    func check(_ path: String, size: Int64, sha256: String) -> Outcome {
        var info = stat()
        guard stat(path, &info) == 0 else { return .differs(reason: "cannot be read (\(String(cString: strerror(errno))))", isNew: true) }
        let key = Key(path: path, sha256: sha256, identity: Identity(info))
        if let entry = known.withLock({ $0[path] }), entry.key == key {
            return entry.matches ? .matches(key.identity) : .differs(reason: Self.reason(size), isNew: false)
        }
        hashes.add(1, ordering: .relaxed)
        let matches = Int64(info.st_size) == size && Self.digest(path, identity: key.identity) == sha256
        known.withLock { $0[path] = (key, matches) }
        return matches ? .matches(key.identity) : .differs(reason: Self.reason(size), isNew: true)
    }

    private static func reason(_ size: Int64) -> String { "does not match the size (\(size) bytes) and SHA-256 its signed manifest lists" }

    /// The file's SHA-256, or nil when it cannot be read or is not the file that was looked at.
    static func digest(_ path: String, identity: Identity) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        // The file hashed must be the one whose identity is remembered (not one renamed in since).
        guard fstat(fd, &info) == 0, Identity(info) == identity else { return nil }
        var hasher = SHA256Hex()
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
        return hasher.finalize()
    }
}
