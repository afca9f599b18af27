#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ZIPFoundation

/// Writes a verified package's tree into a staging directory, hashing every file as it streams
/// through and refusing it the moment it is longer than the manifest says. Files an incremental
/// package does not carry are copied from the active version, hashed the same way. The archive is
/// re-read here, after verification, so the hashes (not the earlier signature check) are what
/// protect against a file swapped in between.
enum PackageExtractor {
    static let bufferSize = 256 << 10

    static func extract(_ package: VerifiedPackage, into staging: String, base: String?,
                        progress: ((Int64, Int64) -> Void)?) throws(PackageError) {
        let manifest = package.manifest
        let archive = try VerifiedPackage.open(package.file)
        let wanted = Set(package.carried.values)
        var entries = [String: Entry]()
        for entry in archive {
            let name = entry.path(using: .utf8)
            if wanted.contains(name) { entries[name] = entry }
        }
        let total = manifest.files.reduce(Int64(0)) { $0 + $1.size }
        var done: Int64 = 0
        var directories = Set<String>()
        for file in manifest.files {
            let destination = staging + "/files/" + file.path
            let parent = (destination as NSString).deletingLastPathComponent
            if directories.insert(parent).inserted { try StoreFiles.makeDirectories(parent) }
            // O_EXCL | O_NOFOLLOW: a name can only become a new regular file, never follow or reuse one.
            let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw StoreFiles.error(destination) }
            defer { close(fd) }
            let sink = Sink(fd: fd, path: destination, file: file)
            if let name = package.carried[file.path] {
                guard let entry = entries[name] else { throw .malformedArchive("\(name) cannot be found by the extractor") }
                do {
                    _ = try archive.extract(entry, bufferSize: bufferSize, skipCRC32: true) { try sink.consume($0) }
                } catch {
                    throw sink.failure ?? .malformedArchive("\(name) cannot be decompressed: \(error)")
                }
                guard sink.matches else { throw .hashMismatch(path: file.path) }
            } else {
                guard let base else { throw .malformedArchive("\(file.path) is missing from the archive") }
                try copy(base + "/" + file.path, appID: manifest.appID, into: sink)
                guard sink.matches else {
                    throw .baseMismatch(appID: manifest.appID, reason: "the active version's \(file.path) differs from the base")
                }
            }
            done += file.size
            progress?(done, total)
        }
    }

    private static func copy(_ source: String, appID: String, into sink: Sink) throws(PackageError) {
        guard let handle = FileHandle(forReadingAtPath: source) else {
            throw .baseMismatch(appID: appID, reason: "the active version has no \(source)")
        }
        defer { try? handle.close() }
        do {
            while let chunk = try handle.read(upToCount: bufferSize), !chunk.isEmpty { try sink.consume(chunk) }
        } catch {
            throw sink.failure ?? .io(path: source, reason: "\(error)")
        }
    }

    /// One file being written: counts, hashes, and stops at the first byte past the listed size.
    private final class Sink {
        let fd: Int32
        let path: String
        let file: PackageManifest.File
        var hasher = SHA256Hex()
        var count: Int64 = 0
        var failure: PackageError?

        init(fd: Int32, path: String, file: PackageManifest.File) {
            self.fd = fd
            self.path = path
            self.file = file
        }

        func consume(_ chunk: Data) throws(PackageError) {
            count += Int64(chunk.count)
            guard count <= file.size else {
                failure = .hashMismatch(path: file.path)
                throw .hashMismatch(path: file.path)
            }
            hasher.update(chunk)
            do { try StoreFiles.write(fd, chunk, path: path) } catch { failure = error; throw error }
        }

        var matches: Bool { count == file.size && hasher.finalize() == file.sha256 }
    }
}
