import Foundation
import HybridShellCore

/// Keys, sites, packages and stores in a fresh temporary directory per test.
public final class PackageFixtures: @unchecked Sendable {
    public let directory: URL
    public let key = PackageSigningKey()
    public let otherKey = PackageSigningKey()

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkgtest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    public var trust: TrustedKeys { try! TrustedKeys([key.publicKey]) }

    public func path(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Writes `files` (path → content) as a site folder.
    @discardableResult
    public func site(_ name: String, _ files: [String: String]) throws -> URL {
        let root = path(name)
        try? FileManager.default.removeItem(at: root)
        for (file, content) in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        return root
    }

    /// Packs a site into `name`.
    @discardableResult
    public func pack(_ site: URL, _ name: String, sequence: Int64, app: String = "demo", version: String? = nil, expires: Date? = nil,
              base: URL? = nil, key: PackageSigningKey? = nil) throws -> URL {
        let options = PackageBuilder.Options(appID: app, version: version ?? "1.\(sequence).0", sequence: sequence, expires: expires)
        let (data, _) = try PackageBuilder(key: key ?? self.key).pack(directory: site, options: options, base: base)
        let url = path(name)
        try data.write(to: url)
        return url
    }

    public func store(now: @escaping @Sendable () -> Date = { Date() }, limits: PackageLimits = .standard,
               observer: (@Sendable (PackageEvent) -> Void)? = nil) -> PackageStore {
        PackageStore(directory: path("data/packages"), trust: trust, limits: limits, now: now, observer: observer)
    }

    public static let v1 = ["index.html": "<h1>one</h1>", "css/site.css": "body { color: red }", "js/app.js": "console.log(1)"]
    public static let v2 = ["index.html": "<h1>two</h1>", "css/site.css": "body { color: red }", "js/new.js": "console.log(2)"]

    /// A signed archive with hand-made entries (names, types, aliasing) around a manifest listing `listed`.
    public func crafted(_ name: String, entries: [RawZip.Entry], listed: [String: String], key: PackageSigningKey? = nil) throws -> URL {
        let manifest = PackageManifest(appID: "demo", version: "9", sequence: 9, entry: listed.keys.sorted().first ?? "index.html",
                                       files: listed.map { .init(path: $0.key, size: Int64($0.value.utf8.count), sha256: SHA256Hex.digest(Data($0.value.utf8))) })
        var zip = RawZip()
        zip.add(.init(name: Data("manifest.json".utf8), data: manifest.canonicalBytes()))
        for entry in entries { zip.add(entry) }
        let url = path(name)
        try PackageSeal.seal(zip.bytes(), with: key ?? self.key).write(to: url)
        return url
    }
}

/// A minimal zip writer for hostile archives the real packer would never make.
public struct RawZip {
    public struct Entry {
        public var name: Data
        public var data: Data
        /// Unix mode bits including the type (0o100644 a file, 0o120777 a symlink).
        public var mode: UInt32 = 0o100644
        /// Point this central record at an earlier entry's local header (a zip "hard link").
        public var aliasOf: Int?

        public init(name: Data, data: Data, mode: UInt32 = 0o100644, aliasOf: Int? = nil) {
            self.name = name
            self.data = data
            self.mode = mode
            self.aliasOf = aliasOf
        }

        public init(_ name: String, _ content: String, mode: UInt32 = 0o100644) {
            self.init(name: Data(name.utf8), data: Data(content.utf8), mode: mode)
        }
    }

    private var entries = [Entry]()

    public init() {}

    public mutating func add(_ entry: Entry) { entries.append(entry) }

    public func bytes() -> Data {
        var out = Data(), central = Data(), offsets = [UInt32]()
        for entry in entries {
            let crc = Self.crc32(entry.data)
            let offset: UInt32
            if let alias = entry.aliasOf {
                offset = offsets[alias]
            } else {
                offset = UInt32(out.count)
                out.le(0x0403_4b50, 4); out.le(20, 2); out.le(0x0800, 2); out.le(0, 2); out.le(0, 2); out.le(0x21, 2)
                out.le(crc, 4); out.le(UInt32(entry.data.count), 4); out.le(UInt32(entry.data.count), 4)
                out.le(UInt32(entry.name.count), 2); out.le(0, 2)
                out += entry.name + entry.data
            }
            offsets.append(offset)
            central.le(0x0201_4b50, 4); central.le(0x0314, 2); central.le(20, 2); central.le(0x0800, 2); central.le(0, 2)
            central.le(0, 2); central.le(0x21, 2); central.le(crc, 4)
            central.le(UInt32(entry.data.count), 4); central.le(UInt32(entry.data.count), 4)
            central.le(UInt32(entry.name.count), 2); central.le(0, 2); central.le(0, 2); central.le(0, 2); central.le(0, 2)
            central.le(entry.mode << 16, 4); central.le(offset, 4)
            central += entry.name
        }
        let start = UInt32(out.count)
        out += central
        out.le(0x0605_4b50, 4); out.le(0, 2); out.le(0, 2)
        out.le(UInt32(entries.count), 2); out.le(UInt32(entries.count), 2)
        out.le(UInt32(central.count), 4); out.le(start, 4); out.le(0, 2)
        return out
    }

    public static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension Data {
    mutating func le(_ value: UInt32, _ count: Int) {
        for i in 0..<count { append(UInt8((value >> (8 * UInt32(i))) & 0xFF)) }
    }
}

/// Re-hashes every file of an installed version against its manifest (the "fully verifying" check).
public func treeVerifies(_ installed: InstalledPackage) -> Bool {
    for file in installed.manifest.files {
        guard let data = FileManager.default.contents(atPath: installed.root.path + "/" + file.path),
              Int64(data.count) == file.size, SHA256Hex.digest(data) == file.sha256 else { return false }
    }
    let listed = Set(installed.manifest.files.map(\.path))
    let present = (FileManager.default.enumerator(atPath: installed.root.path)?.allObjects as? [String] ?? [])
        .filter { !$0.isEmpty && !isDirectory(installed.root.path + "/" + $0) }
    return Set(present) == listed
}

public func isDirectory(_ path: String) -> Bool {
    var flag: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
}
