import Crypto
import Foundation
import ZIPFoundation

/// A package archive whose signature verified with a trusted key and whose manifest and entry list
/// passed every check; nothing has been extracted yet. Made by ``verify(file:trust:limits:now:)``.
public struct VerifiedPackage: Sendable {
    public let manifest: PackageManifest
    /// The key that signed it.
    public let keyID: String
    /// The manifest exactly as signed (written next to the installed tree).
    let manifestBytes: Data
    let file: URL
    /// Package path → archive entry name, for the files the archive carries.
    let carried: [String: String]

    static let manifestName = "manifest.json"
    static let filesPrefix = "files/"

    /// Verifies `file`: the signature over every archive byte first, then the manifest, expiry,
    /// limits and each entry name. Throws the first reason it is refused.
    public static func verify(file: URL, trust: TrustedKeys, limits: PackageLimits = .standard,
                              now: Date = Date()) throws(PackageError) -> VerifiedPackage {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch {
            throw .io(path: file.path, reason: "cannot be opened")
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        guard size <= UInt64(limits.maximumArchiveBytes) else {
            throw .limitExceeded("the archive is \(size) bytes, the limit is \(limits.maximumArchiveBytes)")
        }
        let signature = try PackageSeal.read(handle, size: size)
        try signature.verify(.package, digest: try PackageSeal.digest(handle, count: size - UInt64(PackageSignature.lineLength)), trust: trust)
        // Everything below reads bytes the trusted key signed; the checks still assume a careless or
        // compromised producer, so a signed package cannot escape the install directory either.
        let directory = try ZipDirectory(file: handle, fileSize: size, commentLength: PackageSignature.lineLength,
                                         maximumEntries: limits.maximumEntries + 1)
        let (manifest, bytes) = try readManifest(file, directory: directory, limits: limits)
        if let expiry = manifest.expiryDate, expiry < now { throw .expired(what: "package \(manifest.appID) \(manifest.version)", expires: manifest.expires ?? "") }
        let carried = try checkEntries(directory, manifest: manifest, limits: limits)
        return VerifiedPackage(manifest: manifest, keyID: signature.keyID, manifestBytes: bytes, file: file, carried: carried)
    }

    /// Reads the manifest and signer of `file` without trusting them (for `inspect`).
    public static func inspect(file: URL) throws(PackageError) -> (manifest: PackageManifest, keyID: String) {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch { throw .io(path: file.path, reason: "cannot be opened") }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        let signature = try PackageSeal.read(handle, size: size)
        let directory = try ZipDirectory(file: handle, fileSize: size, commentLength: PackageSignature.lineLength,
                                         maximumEntries: PackageLimits.standard.maximumEntries + 1)
        return (try readManifest(file, directory: directory, limits: .standard).0, signature.keyID)
    }

    private static func readManifest(_ file: URL, directory: ZipDirectory, limits: PackageLimits) throws(PackageError) -> (PackageManifest, Data) {
        let records = directory.records.filter { $0.name == manifestName }
        guard records.count == 1, let record = records.first else {
            throw .malformedArchive(records.isEmpty ? "no manifest.json" : "more than one manifest.json")
        }
        guard record.kind == .file, record.uncompressedSize <= UInt64(limits.maximumManifestBytes) else {
            throw .limitExceeded("manifest.json is larger than \(limits.maximumManifestBytes) bytes")
        }
        let archive = try open(file)
        guard let entry = archive[manifestName] else { throw .malformedArchive("manifest.json cannot be read") }
        var bytes = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                bytes.append(chunk)
                if bytes.count > limits.maximumManifestBytes { throw PackageError.limitExceeded("manifest.json is larger than declared") }
            }
        } catch let error as PackageError {
            throw error
        } catch {
            throw .malformedArchive("manifest.json cannot be read: \(error)")
        }
        return (try PackageManifest.decode(bytes), bytes)
    }

    static func open(_ file: URL) throws(PackageError) -> Archive {
        do { return try Archive(url: file, accessMode: .read, pathEncoding: .utf8) } catch {
            throw .malformedArchive("\(error)")
        }
    }

    private static func checkEntries(_ directory: ZipDirectory, manifest: PackageManifest,
                                     limits: PackageLimits) throws(PackageError) -> [String: String] {
        let listed = Dictionary(uniqueKeysWithValues: manifest.files.map { ($0.path, $0) })
        var carried = [String: String](), folded = [String: String]()
        var total: Int64 = 0
        for record in directory.records {
            let shown = record.displayName
            guard let name = record.name else { throw .unsafeEntry(name: shown, reason: "name is not valid UTF-8") }
            if name == manifestName { continue }
            if let problem = PackagePath.problem(name) { throw .unsafeEntry(name: name, reason: problem) }
            switch record.kind {
            case .symlink: throw .unsafeEntry(name: name, reason: "symbolic link")
            case .directory: throw .unsafeEntry(name: name, reason: "directory entry (directories are implied by file paths)")
            case .special: throw .unsafeEntry(name: name, reason: "device, FIFO or socket entry")
            case .file: break
            }
            guard !record.encrypted else { throw .unsafeEntry(name: name, reason: "encrypted entry") }
            guard record.method == 0 || record.method == 8 else { throw .unsafeEntry(name: name, reason: "compression method \(record.method) is not stored or deflate") }
            guard name.hasPrefix(filesPrefix) else { throw .unsafeEntry(name: name, reason: "not under files/ and not the manifest") }
            let path = String(name.dropFirst(filesPrefix.count))
            guard let file = listed[path] else { throw .unsafeEntry(name: name, reason: "not listed in the manifest") }
            guard carried.updateValue(name, forKey: path) == nil else { throw .unsafeEntry(name: name, reason: "duplicate entry") }
            if let other = folded.updateValue(name, forKey: PackagePath.caseFolded(name)) {
                throw .unsafeEntry(name: name, reason: "differs from \(other) only in case")
            }
            guard record.uncompressedSize == UInt64(file.size) else {
                throw .unsafeEntry(name: name, reason: "declares \(record.uncompressedSize) bytes, the manifest lists \(file.size)")
            }
            let ratio = Int64(record.uncompressedSize) / Int64(max(record.compressedSize, 1))
            if file.size >= limits.ratioFloorBytes, ratio > limits.maximumRatio {
                throw .limitExceeded("\(name) expands \(ratio)× (the limit is \(limits.maximumRatio)×)")
            }
        }
        for file in manifest.files { total += file.size }
        guard total <= limits.maximumTotalBytes else {
            throw .limitExceeded("the tree is \(total) bytes, the limit is \(limits.maximumTotalBytes)")
        }
        guard manifest.files.count <= limits.maximumEntries else {
            throw .limitExceeded("\(manifest.files.count) files, the limit is \(limits.maximumEntries)")
        }
        if manifest.base == nil, let missing = manifest.files.first(where: { carried[$0.path] == nil }) {
            throw .malformedArchive("\(missing.path) is listed in the manifest but missing from the archive")
        }
        return carried
    }
}

/// The signature an archive carries as its zip comment (see ``PackageSignature``).
package enum PackageSeal {
    /// Parses the comment at the end of the archive.
    static func read(_ handle: FileHandle, size: UInt64) throws(PackageError) -> PackageSignature {
        let tailSize = ZipDirectory.endRecordSize + PackageSignature.lineLength
        guard size >= UInt64(tailSize) else { throw .missingSignature("the file is too short to carry one") }
        let tail = try ZipDirectory.read(handle, at: size - UInt64(tailSize), count: tailSize)
        guard tail.le32(0) == 0x0605_4b50, Int(tail.le16(20)) == PackageSignature.lineLength else {
            throw .missingSignature("the archive has no signature comment (not signed, or truncated)")
        }
        return try PackageSignature.parse(tail.suffix(PackageSignature.lineLength))
    }

    /// SHA-256 of the first `count` bytes, streamed.
    static func digest(_ handle: FileHandle, count: UInt64) throws(PackageError) -> SHA256.Digest {
        var hasher = SHA256()
        var remaining = count
        do {
            try handle.seek(toOffset: 0)
            while remaining > 0 {
                let chunk = try handle.read(upToCount: Int(min(remaining, 1 << 20))) ?? Data()
                guard !chunk.isEmpty else { throw PackageError.malformedArchive("the archive is truncated") }
                hasher.update(data: chunk)
                remaining -= UInt64(chunk.count)
            }
        } catch let error as PackageError {
            throw error
        } catch {
            throw .malformedArchive("cannot read the archive: \(error)")
        }
        return hasher.finalize()
    }

    /// Signs an unsigned archive in memory: sets the comment length and appends the signature line.
    package static func seal(_ archive: Data, with key: PackageSigningKey) throws(PackageError) -> Data {
        var data = archive
        let end = data.count - ZipDirectory.endRecordSize
        guard end >= 0, data.le32(end) == 0x0605_4b50, data.le16(end + 20) == 0 else {
            throw .malformedArchive("the packer's archive has no plain end record")
        }
        let length = UInt16(PackageSignature.lineLength)
        data[data.startIndex + end + 20] = UInt8(length & 0xFF)
        data[data.startIndex + end + 21] = UInt8(length >> 8)
        let signature = try PackageSignature.sign(.package, digest: SHA256.hash(data: data), with: key)
        return data + signature.line
    }
}
