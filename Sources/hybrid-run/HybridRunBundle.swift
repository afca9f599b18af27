import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run bundle DIR --output OUT`: the app as a Debian package. Signs `web/` into an offline
/// package with the app's key, lays out the tree (``AppBundle``, in the library), scales a PNG
/// icon (``IconScaler``) and runs `dpkg-deb`.
struct HybridRunBundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Make an app's .deb: its web folder signed as an offline package, a launcher, a desktop entry with its deep-link schemes, icons, AppStream metainfo.",
        usage: "hybrid-run bundle [DIR] --output OUT [--key FILE] [--sequence N] [--kiosk]",
        discussion: """
            Writes OUT/<id>_<version>_amd64.deb. It installs /usr/bin/<command> (hybrid-run app \
            /usr/share/<id>/app.toml), /usr/share/<id>/ (app.toml, the signed package as its preset, \
            the icon and the trusted public keys — never a private key), \
            /usr/share/applications/<id>.desktop (Exec=<command> %u, x-scheme-handler/<scheme> for \
            each scheme), /usr/share/icons/hicolor/ (an SVG as is, a square PNG scaled to each size \
            up to its own by gdk-pixbuf) and /usr/share/metainfo/<id>.metainfo.xml; it depends on \
            hybrid-run. --kiosk adds <package>-kiosk.service running the app full screen with the \
            [kiosk] keys of app.toml. SOURCE_DATE_EPOCH sets the release date. See docs/apps.md.

            Examples:
              hybrid-run bundle shop --output dist
              hybrid-run bundle shop --output dist --kiosk --sequence 7

            Exit codes: 0 written · 2 dpkg-deb or the disk failed · 4 usage or app.toml error.
            """
    )

    @Argument(help: ArgumentHelp("The app's folder (with app.toml) or its app.toml (default: the current folder). Example: shop", valueName: "dir"))
    var directory: String = "."

    @Option(name: .long, help: ArgumentHelp("Where to write the .deb (created if missing). Example: --output dist", valueName: "dir"))
    var output: String

    @Option(name: .long, help: ArgumentHelp(
        "The private key that signs the package (default: the first trusted key's .key beside its .pub). Example: --key ~/keys/shop.key", valueName: "file"))
    var key: String?

    @Option(name: .long, help: ArgumentHelp(
        "The package sequence, larger than every earlier release's (default: from the version, 1.2.3 → 1002003). Example: --sequence 7", valueName: "n"))
    var sequence: Int64?

    @Flag(name: .long, help: "Also install a systemd unit running the app as a kiosk (the [kiosk] keys of app.toml). Example: --kiosk")
    var kiosk = false

    func execute(output lines: OutputLines = .standardOutput) -> Int32 {
        let started = ContinuousClock.now
        let prepared: (bundle: AppBundle, signing: PackageSigningKey, sequence: Int64)
        do {
            prepared = try prepare()
        } catch {
            OutputLines.standardError.write("hybrid-run: error: \(error)")
            return ExitStatus.usage.rawValue
        }
        do {
            let deb = try write(prepared.bundle, signing: prepared.signing, sequence: prepared.sequence)
            let size = (try? FileManager.default.attributesOfItem(atPath: deb)[.size] as? Int) ?? 0
            lines.write("\(deb): \(prepared.bundle.debianPackage) \(prepared.bundle.app.version) (package sequence \(prepared.sequence)), "
                + "\(size) bytes in \((ContinuousClock.now - started).millisecondsText); installs /usr/bin/\(prepared.bundle.app.command)")
            return ExitStatus.success.rawValue
        } catch {
            OutputLines.standardError.write("hybrid-run: error: \(error)")
            return ExitStatus.failure.rawValue
        }
    }

    /// Everything that is the caller's to fix: the app.toml, the key, the sequence.
    func prepare() throws -> (AppBundle, PackageSigningKey, Int64) {
        let app = try AppManifest.open(directory)
        let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init)
        let bundle = AppBundle(app: app, runner: .init(package: "hybrid-run"), date: epoch.map { Date(timeIntervalSince1970: $0) } ?? Date())
        try bundle.check()
        let keyPath = key ?? app.trustedKeys.first.map { ($0.hasSuffix(".pub") ? String($0.dropLast(4)) : $0) + ".key" } ?? ""
        let signing = try PackageSigningKey(contentsOf: URL(fileURLWithPath: keyPath))
        let trusted = try app.trustedKeys.map { try PackagePublicKey(contentsOf: URL(fileURLWithPath: $0)) }
        guard trusted.contains(signing.publicKey) else {
            throw ShellError.invalidArgument("\(keyPath) is not the private half of a trusted key of \(app.file): the installed app would refuse its package")
        }
        guard let sequence = sequence ?? AppBundle.sequence(for: app.version), sequence >= 1 else {
            throw ShellError.invalidArgument("cannot derive a package sequence from the version \(app.version); give one with --sequence N")
        }
        if kiosk, app.kiosk == nil {
            throw ShellError.invalidArgument("--kiosk needs a [kiosk] table in \(app.file) (it may be empty: the kiosk defaults)")
        }
        return (bundle, signing, sequence)
    }

    /// Packs, stages and runs dpkg-deb; returns the .deb's path. Nothing half-written is left.
    func write(_ bundle: AppBundle, signing: PackageSigningKey, sequence: Int64) throws -> String {
        let app = bundle.app
        let package = try PackageBuilder(key: signing).pack(directory: URL(fileURLWithPath: app.web),
                                                            options: .init(appID: app.id, version: app.version, sequence: sequence, entry: app.entry)).data
        let files = try bundle.files(package: package, icon: try icon(app), kiosk: kiosk)
        let out = URL(fileURLWithPath: output).standardizedFileURL
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let stage = out.appendingPathComponent(".\(bundle.fileName).stage-\(getpid())")
        let partial = out.appendingPathComponent(".\(bundle.fileName).part-\(getpid())")
        defer {
            try? FileManager.default.removeItem(at: stage)
            try? FileManager.default.removeItem(at: partial)
        }
        try AppBundle.stage(files, into: stage)
        let dpkg = Process()
        dpkg.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-deb")
        dpkg.arguments = ["--root-owner-group", "-Zxz", "--build", stage.path, partial.path]
        let messages = Pipe()
        dpkg.standardOutput = messages
        dpkg.standardError = messages
        try dpkg.run()
        let said = String(decoding: messages.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        dpkg.waitUntilExit()
        guard dpkg.terminationStatus == 0 else {
            throw ShellError.invalidArgument("dpkg-deb failed (\(dpkg.terminationStatus)): \(said.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        let deb = out.appendingPathComponent(bundle.fileName)
        // rename(2): readers see the old .deb or the whole new one.
        guard rename(partial.path, deb.path) == 0 else { throw ShellError.invalidArgument("cannot write \(deb.path): \(String(cString: strerror(errno)))") }
        return deb.path
    }

    /// The icon as installed: an SVG as is; a square PNG at each standard size up to its own.
    func icon(_ app: AppManifest) throws -> AppBundle.Icon? {
        guard let path = app.icon else { return nil }
        if path.lowercased().hasSuffix(".svg") {
            guard let data = FileManager.default.contents(atPath: path) else { throw ShellError.invalidArgument("cannot read \(path)") }
            return .svg(data)
        }
        let (width, height) = try IconScaler.size(of: path)
        guard width == height, width >= 48 else {
            throw ShellError.invalidArgument("\(app.file): icon \(path) is \(width)x\(height); a PNG icon must be square and at least 48x48 (or use an SVG)")
        }
        var sizes: [Int: Data] = [:]
        for size in AppBundle.iconSizes where size <= width { sizes[size] = try IconScaler.png(path, size: size) }
        return .png(sizes)
    }
}
