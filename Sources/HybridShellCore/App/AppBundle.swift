import Crypto
import Foundation

/// The tree of an app's `.deb` (`hybrid-run bundle`): `/usr/bin/<command>` (the launcher),
/// `/usr/share/<id>/` (app.toml naming the signed package as its preset, the package, the icon
/// and the trusted public keys — never a private key), the desktop entry with its deep-link
/// schemes, hicolor icons, AppStream metainfo, copyright and changelog, `DEBIAN/control` and
/// `md5sums`; with `kiosk`, a systemd unit and the kiosk profile. Pure: the caller packs `web/`,
/// scales the icon and runs `dpkg-deb` on what ``stage(_:into:)`` writes.
public struct AppBundle: Sendable {
    /// One file of the tree: its path below `/`, contents and mode.
    public struct File: Sendable, Equatable {
        public var path: String
        public var data: Data
        public var mode: Int

        public init(_ path: String, _ data: Data, mode: Int = 0o644) {
            self.path = path
            self.data = data
            self.mode = mode
        }
    }

    /// The app's icon as installed: an SVG, or PNGs by pixel size.
    public enum Icon: Sendable {
        case svg(Data)
        case png([Int: Data])
    }

    /// The PNG sizes made from a PNG icon (those up to its own size).
    public static let iconSizes = [16, 24, 32, 48, 64, 128, 256, 512]

    /// The program that runs the installed app: its Debian package, which is also its command in
    /// `/usr/bin` (the launcher runs `<package> app APP.toml`, the kiosk unit `<package> kiosk`), and
    /// the version the app's package depends on at least.
    public struct Runner: Sendable, Equatable {
        public var package: String
        public var version: String

        public init(package: String, version: String = HybridShellVersion.current) {
            self.package = package
            self.version = version
        }
    }

    public let app: AppManifest
    public var runner: Runner
    /// The release date (AppStream, changelog): `SOURCE_DATE_EPOCH` for reproducible packages.
    public var date: Date

    public init(app: AppManifest, runner: Runner, date: Date) {
        self.app = app
        self.runner = runner
        self.date = date
    }

    /// The Debian package name: the id, lower-case, `_` as `-`.
    public var debianPackage: String { app.id.lowercased().replacingOccurrences(of: "_", with: "-") }
    /// `<id>_<version>_amd64.deb`.
    public var fileName: String { "\(app.id)_\(app.version)_amd64.deb" }
    var installedDirectory: String { "/usr/share/\(app.id)" }
    var installedManifest: String { installedDirectory + "/" + AppManifest.fileName }
    /// The package file in ``installedDirectory``.
    var packageName: String { "\(app.id).zip" }

    /// What a package needs that `dev` does not; each problem names the app.toml.
    public func check() throws(ShellError) {
        func fail(_ message: String) -> ShellError { .invalidArgument("\(app.file): \(message)") }
        if app.summary == nil { throw fail("bundle needs summary = \"one line\" (the .deb's and AppStream's summary)") }
        if app.license == nil { throw fail("bundle needs license = \"SPDX expression\", like \"MIT\" (AppStream, copyright)") }
        if app.trustedKeys.isEmpty { throw fail("bundle needs trusted_keys = [\"FILE.pub\"]: the installed app only serves packages signed by them") }
        if app.preset != nil { throw fail("preset is written by bundle into the installed app.toml; leave it out of the source") }
        for path in [app.icon].compactMap({ $0 }) + app.trustedKeys where relative(path) == nil {
            throw fail("\(path) is outside the app folder; bundle installs the icon and keys beside app.toml")
        }
    }

    /// The package sequence a version gives when none is given: `1.2.3` → 1002003 (each part < 1000).
    public static func sequence(for version: String) -> Int64? {
        let parts = version.split(whereSeparator: { !$0.isNumber && $0 != "." }).first?.split(separator: ".").prefix(3) ?? []
        let numbers = parts.compactMap { Int64($0) }
        guard !numbers.isEmpty, numbers.count == parts.count, numbers.allSatisfy({ $0 < 1000 }) else { return nil }
        let padded = numbers + Array(repeating: 0, count: 3 - numbers.count)
        let sequence = padded[0] * 1_000_000 + padded[1] * 1000 + padded[2]
        return sequence >= 1 ? sequence : nil
    }

    /// Every file of the package, `DEBIAN/` included.
    public func files(package: Data, icon: Icon?, kiosk: Bool) throws(ShellError) -> [File] {
        try check()
        var files = [File]()
        files.append(File("usr/bin/\(app.command)", Data(launcher.utf8), mode: 0o755))
        let source: String
        do { source = try String(contentsOfFile: app.file, encoding: .utf8) } catch { throw .invalidArgument("cannot read \(app.file)") }
        let installed = "# Installed by \(runner.package) bundle: the app is served from its signed package.\npreset = \"\(packageName)\"\n\n" + source
        files.append(File(String(installedDirectory.dropFirst()) + "/" + AppManifest.fileName, Data(installed.utf8)))
        files.append(File(String(installedDirectory.dropFirst()) + "/" + packageName, package))
        for path in [app.icon].compactMap({ $0 }) + app.trustedKeys {
            guard let data = FileManager.default.contents(atPath: path) else { throw .invalidArgument("cannot read \(path)") }
            files.append(File(String(installedDirectory.dropFirst()) + "/" + relative(path)!, data))
        }
        files.append(File("usr/share/man/man1/\(app.command).1.gz", try Gzip.compress(Data(manPage.utf8))))
        files.append(File("usr/share/applications/\(app.id).desktop", Data(desktopEntry.utf8)))
        switch icon {
        case .svg(let data): files.append(File("usr/share/icons/hicolor/scalable/apps/\(app.id).svg", data))
        case .png(let sizes):
            for (size, data) in sizes.sorted(by: { $0.key < $1.key }) {
                files.append(File("usr/share/icons/hicolor/\(size)x\(size)/apps/\(app.id).png", data))
            }
        case nil: break
        }
        files.append(File("usr/share/metainfo/\(app.id).metainfo.xml", Data(metainfo.utf8)))
        files.append(File("usr/share/doc/\(debianPackage)/copyright", Data(copyright.utf8)))
        files.append(File("usr/share/doc/\(debianPackage)/changelog.gz", try Gzip.compress(Data(changelog.utf8))))
        if kiosk { files += try kioskFiles() }
        let size = files.reduce(0) { $0 + ($1.data.count + 1023) / 1024 }
        let sums = files.sorted { $0.path < $1.path }.map { Insecure.MD5.hash(data: $0.data).map { String(format: "%02x", $0) }.joined() + "  " + $0.path }
        files.append(File("DEBIAN/control", Data(control(installedSize: max(size, 1)).utf8)))
        files.append(File("DEBIAN/md5sums", Data((sums.joined(separator: "\n") + "\n").utf8)))
        return files
    }

    /// Writes `files` below `root` (folders 0755, each file with its mode).
    public static func stage(_ files: [File], into root: URL) throws(ShellError) {
        let manager = FileManager.default
        for file in files {
            let url = root.appendingPathComponent(file.path)
            do {
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o755])
            } catch {
                throw .invalidArgument("cannot create \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
            }
            guard manager.createFile(atPath: url.path, contents: file.data, attributes: [.posixPermissions: file.mode]) else {
                throw .invalidArgument("cannot write \(url.path)")
            }
        }
    }

    /// `path` relative to the app's folder, or nil when it is outside.
    func relative(_ path: String) -> String? {
        let folder = app.directory.hasSuffix("/") ? app.directory : app.directory + "/"
        return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : nil
    }
}
