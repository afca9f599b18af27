import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run app APP.toml [URL…]`: runs an installed app as a desktop app — one instance per app
/// id; a later launch hands its URLs (deep links, files) to the running one and exits 0.
/// ``AppCommand`` runs it over ``DesktopApp``.
struct HybridRunApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Run an installed app in its window, one instance per app id; later launches hand their URLs to it.",
        usage: "hybrid-run app APP.toml [URL ...] [--exit-after load|close|SECONDS] [options]",
        discussion: """
            APP.toml is the app's description (/usr/share/<id>/app.toml once installed, or an app's \
            folder). The first launch opens the app's window (its size, position and maximised state \
            as it was left); its data lives in $XDG_DATA_HOME/<id> (~/.local/share/<id>), where its \
            package (the installed preset, then updates) is kept. A launch while it runs passes its \
            URLs to it over D-Bus and exits 0: the page gets them as hybrid.on('open', e => e.urls). \
            A URL must use one of the app's schemes (app.toml schemes) or be a file; anything else is \
            refused (exit 4). Console messages are printed on stdout.

            Examples:
              hybrid-run app /usr/share/org.example.Shop/app.toml
              hybrid-run app /usr/share/org.example.Shop/app.toml shop://orders/42

            Exit codes: 0 ok (also when the URLs went to the running instance) · 2 load failed, no \
            display or no bus · 3 timeout · 4 usage or app.toml error, or a URL the app does not open.
            """
    )

    @Argument(help: ArgumentHelp("The app's app.toml (or its folder). Example: /usr/share/org.example.Shop/app.toml", valueName: "app.toml"))
    var app: String

    @Argument(help: ArgumentHelp("Deep links in the app's schemes, or files, for the app to open. Example: shop://orders/42", valueName: "url"))
    var urls: [String] = []

    @OptionGroup var displayOption: DisplayOption

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Stop when the page has loaded (load), when it calls window.close() (close), or after a number of seconds. Default: run until the window closes or SIGINT/SIGTERM. Example: --exit-after load",
        valueName: "load|close|seconds"))
    var exitAfter: String?

    /// The app and the URLs to open; app.toml problems and refused URLs are usage errors (exit 4).
    func options() throws -> (options: DesktopAppOptions, uris: [String], exitAfter: ExitCondition?) {
        let manifest = try AppManifest.open(app)
        let uris = try LaunchURIs.check(urls, appID: manifest.id, schemes: manifest.schemes, directory: FileManager.default.currentDirectoryPath)
        return (try DesktopAppOptions(app: manifest), uris, try exitAfter.map { try ExitCondition(parsing: $0) })
    }
}
