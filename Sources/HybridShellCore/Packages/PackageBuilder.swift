import Crypto
import Foundation
import ZIPFoundation

/// Makes signed packages from a directory: the producer side of `hybrid-run package pack`.
/// Deterministic: entries sorted by path, one fixed timestamp, mode 0644, deflate, and Ed25519
/// signatures that involve no randomness, so the same input and key give the same bytes.
public struct PackageBuilder: Sendable {
    /// What goes into the manifest besides the files.
    public struct Options: Sendable {
        public var appID: String
        public var version: String
        public var sequence: Int64
        public var expires: Date?
        public var entry: String
        public var enable: Bool
        public var priority: Int
        public var pathMap: [String: String]
        /// Pack files and folders whose name starts with a dot (`.env`, `.git/`); left out by default
        /// (``hiddenEntries(_:)`` names them): they are mostly secrets and tooling, and `app://`
        /// refuses hidden paths anyway.
        public var includeHidden = false

        public init(appID: String, version: String, sequence: Int64, expires: Date? = nil, entry: String = "index.html",
                    enable: Bool = true, priority: Int = 0, pathMap: [String: String] = [:]) {
            self.appID = appID
            self.version = version
            self.sequence = sequence
            self.expires = expires
            self.entry = entry
            self.enable = enable
            self.priority = priority
            self.pathMap = pathMap
        }
    }

    /// 2000-01-01 00:00 UTC. Zip stores local time, so builds on machines in other time zones may
    /// differ in these two fields only; the manifest and signature cover the content either way.
    static let timestamp = Date(timeIntervalSince1970: 946_684_800)

    public let key: PackageSigningKey

    public init(key: PackageSigningKey) { self.key = key }

    /// Packs `directory`. With `base` (an older package signed by the same key) the result is an
    /// incremental package carrying only new and changed files, and naming the base tree it applies to.
    public func pack(directory: URL, options: Options, base: URL? = nil) throws(PackageError) -> (data: Data, manifest: PackageManifest) {
        let files = try Self.scan(directory, includeHidden: options.includeHidden)
        var manifest = PackageManifest(appID: options.appID, version: options.version, sequence: options.sequence,
                                       expires: options.expires.map(Self.isoString), entry: options.entry,
                                       enable: options.enable, priority: options.priority,
                                       files: files.map(\.file), pathMap: options.pathMap)
        var carried = Set(files.map(\.file.path))
        if let base {
            let old = try VerifiedPackage.verify(file: base, trust: try TrustedKeys([key.publicKey]), now: .distantPast)
            guard old.manifest.appID == options.appID else { throw .wrongApp(expected: options.appID, found: old.manifest.appID) }
            let oldFiles = Dictionary(uniqueKeysWithValues: old.manifest.files.map { ($0.path, $0) })
            carried = Set(files.map(\.file).filter { oldFiles[$0.path] != $0 }.map(\.path))
            let kept = Set(files.map(\.file.path))
            manifest.base = .init(sequence: old.manifest.sequence, treeSHA256: old.manifest.treeHash,
                                  deletes: old.manifest.files.map(\.path).filter { !kept.contains($0) }.sorted())
        }
        try manifest.validate()
        let manifestBytes = manifest.canonicalBytes()
        let archive: Archive
        do { archive = try Archive(data: Data(), accessMode: .create, pathEncoding: .utf8) } catch {
            throw .io(path: "memory", reason: "cannot create an archive: \(error)")
        }
        do {
            try Self.add(archive, name: VerifiedPackage.manifestName, data: manifestBytes)
            for file in files where carried.contains(file.file.path) {
                let data = try Data(contentsOf: file.url)
                guard data.count == file.file.size else { throw PackageError.io(path: file.url.path, reason: "changed while packing") }
                try Self.add(archive, name: VerifiedPackage.filesPrefix + file.file.path, data: data)
            }
        } catch let error as PackageError {
            throw error
        } catch {
            throw .io(path: directory.path, reason: "cannot pack: \(error)")
        }
        guard let unsigned = archive.data else { throw .io(path: "memory", reason: "the archive has no data") }
        return (try PackageSeal.seal(unsigned, with: key), manifest)
    }

    private static func add(_ archive: Archive, name: String, data: Data) throws {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), modificationDate: timestamp,
                             permissions: 0o644, compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<(Int(position) + size))
        }
    }

    /// Every regular file under `directory`, sorted, with size and SHA-256. Symlinks and special
    /// files are refused rather than followed: the package would not be what the folder shows.
    static func scan(_ directory: URL, includeHidden: Bool = false) throws(PackageError) -> [(url: URL, file: PackageManifest.File)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .io(path: directory.path, reason: "not a directory")
        }
        let root = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw .io(path: root, reason: "cannot be listed") }
        var found = [(url: URL, file: PackageManifest.File)]()
        while let relative = walker.nextObject() as? String {
            if !includeHidden, Self.isHidden(relative) {
                walker.skipDescendants()
                continue
            }
            let full = root + "/" + relative
            var info = stat()
            guard lstat(full, &info) == 0 else { throw .io(path: full, reason: String(cString: strerror(errno))) }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFREG: break
            case S_IFLNK: throw .io(path: full, reason: "symbolic links cannot be packed (copy the file instead)")
            default: throw .io(path: full, reason: "only regular files can be packed")
            }
            if let problem = PackagePath.problem(relative) { throw .io(path: full, reason: "cannot be packed: \(problem)") }
            let url = URL(fileURLWithPath: full)
            guard let data = try? Data(contentsOf: url) else { throw .io(path: full, reason: "cannot be read") }
            found.append((url, .init(path: relative, size: Int64(data.count), sha256: SHA256Hex.digest(data))))
        }
        return found.sorted { $0.file.path < $1.file.path }
    }

    /// The hidden files and folders (a name starting with a dot) under `directory` that a pack
    /// without ``Options/includeHidden`` leaves out, outermost only, folders with a trailing `/`.
    public static func hiddenEntries(_ directory: URL) -> [String] {
        let root = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var hidden = [String]()
        while let relative = walker.nextObject() as? String {
            guard isHidden(relative) else { continue }
            walker.skipDescendants()
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
            hidden.append(relative + (isDirectory.boolValue ? "/" : ""))
        }
        return hidden.sorted()
    }

    static func isHidden(_ relative: String) -> Bool {
        (relative.split(separator: "/").last ?? "").hasPrefix(".")
    }

    static func isoString(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
