import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run dev DIR`: the app as it runs installed — its `app://<id>/` origin, modules and
/// capabilities — served from its `web` folder, with the inspector on, its console on stdout,
/// and a reload after every save. ``RunCommand`` runs it; ``FolderReload`` (in the library)
/// watches the folder.
struct HybridRunDev: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Run an app from its web folder on its own app:// origin, reloading the page when a file changes.",
        usage: "hybrid-run dev [DIR] [--headless] [--exit-after load|close|SECONDS] [--handlers FILE] [options]",
        discussion: """
            DIR holds app.toml (default: the current folder). The page is app://<id>/<entry>, with the \
            modules and [[capability]] of app.toml, as the installed app has them; web/ is served as \
            it is on disk, and a change under it reloads the page in the same window (debounced: a \
            burst of saves is one reload). The Web Inspector is enabled (right click › Inspect Element). \
            Console messages are printed on stdout; each reload is named on stderr.

            Examples:
              hybrid-run dev shop
              hybrid-run dev shop --headless --exit-after load
              hybrid-run dev shop --handlers mocks.json --data-dir /tmp/shop-data

            Exit codes: 0 ok · 2 load failed, web process crashed or no display · 3 timeout · 4 usage or app.toml error.
            """
    )

    @Argument(help: ArgumentHelp("The app's folder (with app.toml) or its app.toml (default: the current folder). Example: shop", valueName: "dir"))
    var directory: String = "."

    @Flag(name: .long, help: "Render offscreen instead of in a window (for scripts and CI). Example: --headless --exit-after load")
    var headless = false

    @OptionGroup var displayOption: DisplayOption

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Stop when the page has loaded (load), when it calls window.close() (close), or after a number of seconds. Default: run until the window closes or SIGINT/SIGTERM. Example: --exit-after 60",
        valueName: "load|close|seconds"))
    var exitAfter: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Seconds --exit-after load|close may take before giving up with exit code 3. Example: --timeout 10", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .long, help: ArgumentHelp(
        "Fake native handlers from a JSON file, as in hybrid-run run (module handlers of the same name are replaced). Example: --handlers mocks.json",
        valueName: "file"))
    var handlers: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep cookies, storage and module storage in this directory. Default: ephemeral. Example: --data-dir /tmp/shop-data", valueName: "dir"))
    var dataDir: String?

    @Flag(name: .long, help: "Write every page event as one JSON object per line on stdout instead of console lines. Example: --print-events")
    var printEvents = false

    /// The run's options and the folder to watch; app.toml problems are usage errors (exit 4).
    func options() throws -> (options: RunOptions, app: AppManifest) {
        let app = try AppManifest.open(directory)
        var shell = ShellConfiguration(app: app, window: !headless)
        try shell.serveFolder(of: app)
        shell.developerExtras = true
        if let dataDir { shell.storage = .persistent(directory: dataDir) }
        var route = WebRoute(app.entryURL)
        route.customSchemes = [PackageServing.scheme]
        _ = try route.request()
        var options = RunOptions(route: route)
        options.shell = shell
        if let exitAfter { options.exitAfter = try ExitCondition(parsing: exitAfter) }
        if let timeout {
            guard timeout > 0, timeout.isFinite else { throw ShellError.invalidArgument("--timeout must be a positive number of seconds") }
            options.timeout = .milliseconds(Int64(timeout * 1000))
        }
        options.printEvents = printEvents
        if let handlers { options.mockHandlers = try MockHandlers.load(path: handlers) }
        return (options, app)
    }

    /// Runs the app and its reloads on GLib's loop (main.swift calls it there).
    @EngineActor
    static func run(_ options: RunOptions, app: AppManifest, errors: OutputLines = .standardError) async -> RunOutcome {
        let command = RunCommand(options: options)
        var reload: FolderReload?
        command.onPage = { page in
            do {
                reload = try FolderReload(page: page, folder: app.web) { paths in
                    let names = paths.map { $0.hasPrefix(app.web + "/") ? String($0.dropFirst(app.web.count + 1)) : $0 }
                    errors.write("hybrid-run: reloading after a change to \(names.joined(separator: ", "))")
                }
            } catch {
                errors.write("hybrid-run: warning: changes will not reload the page: \(error)")
            }
        }
        errors.write("hybrid-run: serving \(app.web) as \(app.entryURL); watching it for changes")
        let outcome = await command.run()
        reload?.stop()
        return outcome
    }
}
