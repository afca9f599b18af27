import ArgumentParser
import Foundation
import HybridShell

struct PackageInstall: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "install", abstract: "Verify and install a package file or http(s) URL; the old version stays active on any failure.")

    @Argument(help: ArgumentHelp("A package file or URL. Example: shop-7.zip", valueName: "file-or-url"))
    var source: String
    @OptionGroup var store: StoreOptions

    func perform() throws(PackageError) -> String? {
        let packages = try store.store()
        if let url = URL(string: source), ["http", "https"].contains(url.scheme ?? "") {
            let folder = URL(fileURLWithPath: store.dataDir).appendingPathComponent("packages/downloads")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("direct-\(getpid()).zip")
            defer { try? FileManager.default.removeItem(at: file) }
            // No signed size for a bare URL: the archive limit caps it; the signature is checked after.
            let limit = packages.limits.maximumArchiveBytes
            try blocking { () async throws(PackageError) in try await URLSessionPackageDownloader().download(url, to: file, limit: limit) }
            return describe(try packages.install(file: file, progress: TerminalProgress.reporter()))
        }
        return describe(try packages.install(file: URL(fileURLWithPath: source), progress: TerminalProgress.reporter()))
    }
}

struct PackageUpdate: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "update", abstract: "Fetch the signed index at BASE_URL and install what is newer (incremental when possible).")

    @Option(name: .long, help: ArgumentHelp("The server folder holding index.json. Example: --from https://updates.example/shop/", valueName: "base-url"))
    var from: String
    @Option(name: .long, help: ArgumentHelp("POST failure reports (JSON) here. Example: --report https://updates.example/report", valueName: "url"))
    var report: String?
    @OptionGroup var store: StoreOptions

    func perform() throws(PackageError) -> String? {
        guard let base = URL(string: from.hasSuffix("/") ? from : from + "/"), base.scheme != nil else {
            throw .download(url: from, reason: "not a URL")
        }
        let reportURL = report.flatMap(URL.init(string:))
        let packages = try store.store()
        let results = try blocking { () async throws(PackageError) in try await packages.update(from: base, report: reportURL) }
        var lines = [String](), firstFailure: PackageError?
        for result in results {
            switch result.outcome {
            case .upToDate(let sequence): lines.append("\(result.appID) up to date (sequence \(sequence))")
            case .installed(let installed, let incremental): lines.append("installed \(describe(installed))\(incremental ? " (incremental)" : "")")
            case .failed(let error):
                lines.append("\(result.appID) failed: \(error)")
                firstFailure = firstFailure ?? error
            }
        }
        if let firstFailure {
            OutputLines.standardOutput.write(lines.joined(separator: "\n"))
            throw firstFailure
        }
        return lines.isEmpty ? "the index lists no enabled app" : lines.joined(separator: "\n")
    }
}

struct PackagePreset: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "preset", abstract: "Install the preset package shipped with the app, once per app version, if newer.")

    @Argument(help: ArgumentHelp("The preset package. Example: /opt/shop/preset.zip", valueName: "file"))
    var file: String
    @Option(name: .long, help: ArgumentHelp("The app (shell) version now starting. Example: --app-version 3.1", valueName: "version"))
    var appVersion: String
    @OptionGroup var store: StoreOptions

    func perform() throws(PackageError) -> String? {
        switch try store.store().installPreset(file: URL(fileURLWithPath: file), appVersion: appVersion) {
        case .alreadyApplied: "preset already considered for app version \(appVersion)"
        case .notNewer(let sequence): "preset not newer than the installed sequence \(sequence)"
        case .installed(let installed): "installed \(describe(installed))"
        }
    }
}

struct PackageList: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List installed apps and their active versions.")

    @OptionGroup var store: StoreOptions

    func perform() throws(PackageError) -> String? {
        let installed = try store.untrustedStore().list()
        return installed.isEmpty ? "no packages installed" : installed.map(describe).joined(separator: "\n")
    }
}

struct PackageRollback: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "rollback", abstract: "Make the previous version of APP active again.")

    @Argument(help: ArgumentHelp("The app id. Example: shop", valueName: "app"))
    var app: String
    @OptionGroup var store: StoreOptions

    func perform() throws(PackageError) -> String? {
        "rolled back: \(describe(try store.untrustedStore().rollback(app)))"
    }
}

struct PackageRemove: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove APP, all its versions and its trusted sequence.")

    @Argument(help: ArgumentHelp("The app id. Example: shop", valueName: "app"))
    var app: String
    @OptionGroup var store: StoreOptions

    func perform() throws(PackageError) -> String? {
        try store.untrustedStore().remove(app)
        return "removed \(app)"
    }
}
