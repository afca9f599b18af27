import Foundation

/// What a package contains and promises: the app, its version and sequence, when it expires, its
/// files with size and SHA-256, and for an incremental package the base it applies to. Signed as
/// part of the archive (see ``PackageSignature``); its JSON form is documented in docs/offline-packages.md.
public struct PackageManifest: Codable, Sendable, Equatable {
    /// One file of the installed tree.
    public struct File: Codable, Sendable, Equatable {
        public var path: String
        public var size: Int64
        /// Lower-case hex SHA-256 of the file's bytes.
        public var sha256: String

        public init(path: String, size: Int64, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    /// What an incremental package applies to: the installed sequence and tree it was made against.
    public struct Base: Codable, Sendable, Equatable {
        public var sequence: Int64
        /// ``PackageManifest/treeHash`` of the base version.
        public var treeSHA256: String
        /// Files of the base that the new version no longer has (deleted by a differential update).
        public var deletes: [String]

        public init(sequence: Int64, treeSHA256: String, deletes: [String]) {
            self.sequence = sequence
            self.treeSHA256 = treeSHA256
            self.deletes = deletes
        }
    }

    /// The format version; this code reads 1.
    public var format: Int
    public var appID: String
    /// The version people see (`1.2.0`); not compared.
    public var version: String
    /// The monotonically increasing number that orders versions of one app (rollback protection).
    public var sequence: Int64
    /// ISO 8601 instant after which the package is refused (freeze protection); nil = never.
    public var expires: String?
    /// The page to open, a path in ``files``.
    public var entry: String
    /// Whether the app is offered: a disabled app is kept but not offered.
    public var enable: Bool
    /// Update order: higher updates first.
    public var priority: Int
    /// Every file of the new version's tree (for an incremental package too), sorted by path.
    public var files: [File]
    /// Online path (`https://h5.example.com/app/index.html` or `/app/index.html`) → file path in the package.
    public var pathMap: [String: String]
    /// Present for an incremental package.
    public var base: Base?

    public init(appID: String, version: String, sequence: Int64, expires: String? = nil, entry: String,
                enable: Bool = true, priority: Int = 0, files: [File], pathMap: [String: String] = [:], base: Base? = nil) {
        self.format = 1
        self.appID = appID
        self.version = version
        self.sequence = sequence
        self.expires = expires
        self.entry = entry
        self.enable = enable
        self.priority = priority
        self.files = files.sorted { $0.path < $1.path }
        self.pathMap = pathMap
        self.base = base
    }

    /// The canonical bytes: sorted keys, no insignificant white space, no escaped slashes.
    public func canonicalBytes() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain structs of strings and numbers cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Reads and checks a manifest (see ``validate()``).
    public static func decode(_ data: Data) throws(PackageError) -> PackageManifest {
        let manifest: PackageManifest
        // JSONDecoder keeps the first of two equal keys and other readers the last: a manifest
        // that means different things to different readers is refused before it is decoded.
        let strict = JSONParser(limits: .init(rejectDuplicateKeys: true, forbiddenKeys: []))
        do throws(JSONSyntaxError) { try strict.validate(String(decoding: data, as: UTF8.self)) } catch {
            throw .invalidManifest("not a manifest: \(error.description)")
        }
        do {
            manifest = try JSONDecoder().decode(PackageManifest.self, from: data)
        } catch {
            throw .invalidManifest("not a manifest: \(error)")
        }
        try manifest.validate()
        return manifest
    }

    /// Checks every rule a manifest must meet before any of it is used.
    public func validate() throws(PackageError) {
        guard format == 1 else { throw .invalidManifest("format \(format) is not supported (this reader knows 1)") }
        if let problem = Self.appIDProblem(appID) { throw .invalidManifest("appID \(PackageError.printable(appID)): \(problem)") }
        guard sequence >= 1 else { throw .invalidManifest("sequence must be at least 1, not \(sequence)") }
        if let expires, Self.date(expires) == nil {
            throw .invalidManifest("expires \(PackageError.printable(expires)) is not an ISO 8601 instant like 2027-01-31T00:00:00Z")
        }
        guard !files.isEmpty else { throw .invalidManifest("no files") }
        var seen = Set<String>(), folded = [String: String]()
        for file in files {
            if let problem = PackagePath.problem(file.path) { throw .invalidManifest("file \(PackageError.printable(file.path)): \(problem)") }
            guard seen.insert(file.path).inserted else { throw .invalidManifest("file \(file.path) listed twice") }
            if let other = folded.updateValue(file.path, forKey: PackagePath.caseFolded(file.path)) {
                throw .invalidManifest("files \(other) and \(file.path) differ only in case")
            }
            guard file.size >= 0 else { throw .invalidManifest("file \(file.path): negative size") }
            guard Self.isHexDigest(file.sha256) else { throw .invalidManifest("file \(file.path): sha256 is not 64 lower-case hex digits") }
        }
        // A directory and a file of the same name cannot both exist on disk.
        for file in files {
            var prefix = Substring(file.path)
            while let slash = prefix.lastIndex(of: "/") {
                prefix = prefix[..<slash]
                if seen.contains(String(prefix)) { throw .invalidManifest("\(prefix) is both a file and a directory") }
            }
        }
        guard seen.contains(entry) else { throw .invalidManifest("entry page \(PackageError.printable(entry)) is not one of the files") }
        for (online, local) in pathMap where !seen.contains(local) {
            throw .invalidManifest("path map \(PackageError.printable(online)) → \(PackageError.printable(local)): no such file")
        }
        if let base {
            guard base.sequence >= 1, base.sequence < sequence else {
                throw .invalidManifest("base sequence \(base.sequence) must be below the sequence \(sequence)")
            }
            guard Self.isHexDigest(base.treeSHA256) else { throw .invalidManifest("base treeSHA256 is not 64 lower-case hex digits") }
            for path in base.deletes {
                if let problem = PackagePath.problem(path) { throw .invalidManifest("delete \(PackageError.printable(path)): \(problem)") }
            }
        }
    }

    /// A digest of the whole tree (every path, size and hash, in path order): what an incremental
    /// package names as its base, so it only applies to exactly that tree.
    public var treeHash: String {
        var listing = Data()
        for file in files.sorted(by: { $0.path < $1.path }) {
            listing.append(contentsOf: Array(file.path.utf8) + [0] + Array(String(file.size).utf8) + [0] + Array(file.sha256.utf8) + [10])
        }
        return SHA256Hex.digest(listing)
    }

    /// The expiry instant, if any.
    public var expiryDate: Date? { expires.flatMap(Self.date) }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func isHexDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// App ids name directories: letters, digits, `.`, `-`, `_`, 1–128 characters, not starting with a dot.
    package static func appIDProblem(_ id: String) -> String? {
        guard !id.isEmpty, id.utf8.count <= 128 else { return "must be 1 to 128 characters" }
        guard !id.hasPrefix(".") else { return "must not start with a dot" }
        let allowed = id.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 45 || $0 == 95 }
        return allowed ? nil : "only letters, digits, '.', '-' and '_' are allowed"
    }
}
