#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The few file-system operations the store is built from, each mapped to one system call so the
/// crash-safety argument can be read off them: write-fsync-rename for small files, rename of a
/// symlink for the atomic switch, one `syncfs` for a whole extracted tree.
enum StoreFiles {
    static func error(_ path: String, _ code: Int32 = errno) -> PackageError {
        code == ENOSPC || code == EDQUOT ? .diskFull("no space left writing \(path)") : .io(path: path, reason: String(cString: strerror(code)))
    }

    static func makeDirectories(_ path: String) throws(PackageError) {
        var current = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            current += current.isEmpty && component.isEmpty ? "/" : (current.hasSuffix("/") || current.isEmpty ? "" : "/") + component
            if component.isEmpty { continue }
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw error(current) }
        }
    }

    /// Writes `data` to `path` so that a reader sees the old file or the whole new one, and the new
    /// one survives a power cut once this returns.
    static func writeAtomically(_ data: Data, to path: String) throws(PackageError) {
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw error(temporary) }
        do throws(PackageError) {
            try write(fd, data, path: temporary)
            guard fsync(fd) == 0 else { throw error(temporary) }
        } catch let failure {
            close(fd)
            unlink(temporary)
            throw failure
        }
        close(fd)
        guard rename(temporary, path) == 0 else { let failure = error(path); unlink(temporary); throw failure }
        syncDirectory(of: path)
    }

    static func write(_ fd: Int32, _ data: Data, path: String) throws(PackageError) {
        let failure: Int32 = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        if failure != 0 { throw error(path, failure) }
    }

    /// Points the symlink `link` at `target` atomically (a new link renamed over the old one).
    static func pointLink(_ link: String, to target: String) throws(PackageError) {
        let temporary = link + ".new"
        unlink(temporary)
        guard symlink(target, temporary) == 0 else { throw error(temporary) }
        guard rename(temporary, link) == 0 else { let failure = error(link); unlink(temporary); throw failure }
    }

    /// Copies `source` to the new file `destination` (`O_EXCL`), unflushed (the caller syncs).
    static func copy(_ source: String, to destination: String) throws(PackageError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw error(source) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw error(destination) }
        defer { close(output) }
        var buffer = Data(count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw error(source) }
            if count == 0 { return }
            try write(output, buffer.prefix(count), path: destination)
        }
    }

    static func linkTarget(_ link: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func fsyncPath(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    static func syncDirectory(of path: String) {
        fsyncPath((path as NSString).deletingLastPathComponent)
    }

    /// Flushes the file system holding `path` (one call instead of an fsync per extracted file).
    static func syncFileSystem(_ path: String) throws(PackageError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw error(path) }
        defer { close(fd) }
        guard syncfsCall(fd) == 0 else { throw error(path) }
    }

    /// glibc's `syncfs`, which Swift's Glibc module does not declare (it is a GNU extension);
    /// `sync` where it cannot be found.
    private static let syncfsCall: @Sendable (Int32) -> Int32 = {
        typealias SyncFS = @convention(c) (Int32) -> Int32
        guard let symbol = dlsym(nil, "syncfs") else { return { _ in sync(); return 0 } }
        let function = unsafeBitCast(symbol, to: SyncFS.self)
        return { function($0) }
    }()

    static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func freeBytes(_ path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    static func contents(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
