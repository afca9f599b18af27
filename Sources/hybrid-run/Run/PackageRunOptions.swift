import ArgumentParser
import Foundation
import HybridShell
import Synchronization

/// The run command's offline-package flags: open an installed app (`--package`), trust keys,
/// install a preset at start and report failures. Packages are served on `app://<appID>/` from
/// `DATA-DIR/packages` whenever a data directory is given (see docs/offline-packages.md, Serving).
struct PackageRunOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Open the entry page of this installed offline package (needs --data-dir; served as app://APP-ID/). Example: --package shop --data-dir data",
        valueName: "app-id"))
    var package: String?

    @Option(name: .long, help: ArgumentHelp("A trusted package public key (.pub), at most two; for --preset. Example: --trust release.pub",
                                            valueName: "file"))
    var trust: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Before the page opens, install this preset package if it is newer than the installed version (once per preset file). Example: --preset preset.zip --trust release.pub",
        valueName: "file"))
    var preset: String?

    @Option(name: .long, help: ArgumentHelp("POST package failures (JSON with the reason) to this URL. Example: --report-url https://updates.example/report",
                                            valueName: "url"))
    var reportURL: String?

    @Option(name: .long, help: ArgumentHelp(
        "Check this signed update index (index.json + index.json.sig under the URL) at start and every --update-interval; newer versions install in the background and pages see them through the updates module. Example: --update-url https://updates.example/shop/ --trust release.pub",
        valueName: "url"))
    var updateURL: String?

    @Option(name: .long, help: ArgumentHelp("Seconds between two update checks (default 3600; 0: only at start). Example: --update-interval 600",
                                            valueName: "seconds"))
    var updateInterval: Double?

    /// The page when neither --url nor a page argument is given: the app's root, whose entry page
    /// ``PackageRun/start(route:)`` opens once the preset is in.
    func defaultPage(config: String?) throws -> String? {
        guard let app = try package ?? config.map({ try PackageServing.read(ConfigReader(ConfigDocument.load(path: $0))).package }) ?? nil
        else { return nil }
        return try PackageServing.rootURL(of: app)
    }

    /// Registers the package scheme on `shell` when it has a data directory and makes `route`
    /// accept `app:` URLs (``PackageRun/prepare(_:shell:route:)`` with these flags over the config
    /// file's keys). Nil when there is no data directory and no package flag or key.
    func apply(to shell: inout ShellConfiguration, route: inout WebRoute, config: String?) throws -> PackageRun? {
        var serving = try config.map { try PackageServing.read(ConfigReader(ConfigDocument.load(path: $0))) } ?? PackageServing()
        if let package { serving.package = package }
        if !trust.isEmpty { serving.trustedKeys = trust.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }
        if let preset { serving.preset = URL(fileURLWithPath: preset).standardizedFileURL.path }
        if let reportURL { serving.reportURL = try PackageServing.reportURL(reportURL) }
        if let updateURL { serving.updateURL = try PackageServing.updateURL(updateURL) }
        if let updateInterval { serving.updateInterval = try PackageServing.updateInterval(updateInterval) }
        do {
            return try PackageRun.prepare(serving, shell: &shell, route: &route)
        } catch {
            throw ShellError.invalidArgument(Self.message(for: error))
        }
    }

    /// A package run's failure in the words of this command's flags.
    static func message(for failure: PackageRun.Failure) -> String {
        switch failure {
        case .needsDataDirectory: return "--package, --preset and --update-url need --data-dir (the packages live in DATA-DIR/packages)"
        case .updateNeedsTrustedKey:
            return "--update-url needs a trusted key (--trust FILE.pub or trusted_keys in the config file): the update index and packages are checked against their signature"
        case .presetNeedsTrustedKey: return "--preset needs a trusted key: --trust FILE.pub or trusted_keys in the config file"
        case .packageNeedsTrustedKey:
            return "--package needs a trusted key (--trust FILE.pub or trusted_keys in the config file): installed packages are checked against their signature before they are served"
        case .unsigned(let app, let why): return "the package \(app) cannot be opened as signed: \(why) (reinstall it)"
        case .unreadableTrustedKeys(let why): return why
        case .registration(let error): return error.description
        case .notInstalled(let app, let store):
            return "the package \(app) is not installed in \(store) (install it with: package install FILE --data-dir …)"
        }
    }
}
