import Crypto
import Foundation

/// The signed list of packages an update server offers (the update server's configuration endpoint): `index.json`, with
/// its signature line in `index.json.sig` beside it. Package URLs are relative to the index.
public struct PackageIndex: Codable, Sendable, Equatable {
    /// A download: where, how long, and its SHA-256 (checked before the package is even opened).
    public struct Download: Codable, Sendable, Equatable {
        public var url: String
        public var size: Int64
        public var sha256: String
    }

    /// An incremental package, offered to machines whose active version is `baseSequence`.
    public struct Incremental: Codable, Sendable, Equatable {
        public var baseSequence: Int64
        public var download: Download
    }

    /// One app's newest version.
    public struct Entry: Codable, Sendable, Equatable {
        public var appID: String
        public var version: String
        public var sequence: Int64
        public var enable: Bool
        public var priority: Int
        public var full: Download
        public var incremental: [Incremental]
    }

    public var format: Int
    /// ISO 8601; an index past it is refused (a server frozen in the past).
    public var expires: String?
    public var packages: [Entry]

    public static let fileName = "index.json"
    public static let signatureName = "index.json.sig"
    static let maximumBytes = 4 << 20

    /// The entries to act on: enabled ones, highest priority first, then by app id.
    public var ordered: [Entry] {
        packages.filter(\.enable).sorted { ($0.priority, $1.appID) > ($1.priority, $0.appID) }
    }

    /// Verifies the signature over `data` and the index's expiry, then decodes it.
    public static func verify(_ data: Data, signature: Data, trust: TrustedKeys, now: Date) throws(PackageError) -> PackageIndex {
        try PackageSignature.parse(signature.prefix(PackageSignature.lineLength + 1).filter { $0 != 10 })
            .verify(.index, digest: SHA256.hash(data: data), trust: trust)
        let index: PackageIndex
        do { index = try JSONDecoder().decode(PackageIndex.self, from: data) } catch {
            throw .invalidManifest("index.json: \(error)")
        }
        guard index.format == 1 else { throw .invalidManifest("index.json: format \(index.format) is not supported") }
        if let expires = index.expires {
            guard let date = PackageManifest.date(expires) else { throw .invalidManifest("index.json: expires is not an ISO 8601 instant") }
            if date < now { throw .expired(what: "the update index", expires: expires) }
        }
        for entry in index.packages {
            if let problem = PackageManifest.appIDProblem(entry.appID) { throw .invalidManifest("index.json: appID \(PackageError.printable(entry.appID)): \(problem)") }
            for download in [entry.full] + entry.incremental.map(\.download) {
                guard download.size >= 0, PackageManifest.isHexDigest(download.sha256) else {
                    throw .invalidManifest("index.json: \(entry.appID): a download without a valid size and sha256")
                }
            }
        }
        return index
    }

    /// Makes a signed index for package files that will be served next to it under their file names.
    public static func make(packages: [URL], expires: Date?, key: PackageSigningKey) throws(PackageError) -> (index: Data, signature: Data) {
        var entries = [String: Entry]()
        var incrementals = [String: [Incremental]]()
        let trust = try TrustedKeys([key.publicKey])
        for file in packages {
            let verified = try VerifiedPackage.verify(file: file, trust: trust, now: .distantPast)
            guard let data = try? Data(contentsOf: file) else { throw .io(path: file.path, reason: "cannot be read") }
            let manifest = verified.manifest
            let download = Download(url: file.lastPathComponent, size: Int64(data.count), sha256: SHA256Hex.digest(data))
            if let base = manifest.base {
                incrementals[manifest.appID + "#\(manifest.sequence)", default: []].append(.init(baseSequence: base.sequence, download: download))
            } else if (entries[manifest.appID]?.sequence ?? 0) < manifest.sequence {
                entries[manifest.appID] = Entry(appID: manifest.appID, version: manifest.version, sequence: manifest.sequence,
                                                enable: manifest.enable, priority: manifest.priority, full: download, incremental: [])
            }
        }
        for (appID, entry) in entries {
            entries[appID]?.incremental = (incrementals[appID + "#\(entry.sequence)"] ?? []).sorted { $0.baseSequence < $1.baseSequence }
        }
        let index = PackageIndex(format: 1, expires: expires.map(PackageBuilder.isoString),
                                 packages: entries.values.sorted { $0.appID < $1.appID })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        guard let data = try? encoder.encode(index) else { throw .io(path: "index", reason: "cannot be encoded") }
        let signature = try PackageSignature.sign(.index, digest: SHA256.hash(data: data), with: key)
        return (data, signature.line + Data([10]))
    }
}
