import ArgumentParser
import HybridShell

/// `hybrid-run`: the root command. It has no flags of its own; ArgumentParser picks the subcommand
/// by name (a name wins over a page, so `hybrid-run test` is never a page called "test") and falls
/// back to ``HybridRun`` (`run`, the URL form). main.swift parses it and runs the chosen command on
/// GLib's loop.
struct HybridRunRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hybrid-run",
        abstract: "Open a web page in WebKitGTK, print its console, and exit with an honest code.",
        discussion: """
            Without a subcommand, hybrid-run runs a page: hybrid-run --url URL-OR-PATH is hybrid-run run \
            --url URL-OR-PATH (see hybrid-run help run for its options).
            """,
        version: "hybrid-run \(HybridShellVersion.current) (WebKitGTK \(WebContext.engineVersion))",
        subcommands: [HybridRun.self, HybridRunTest.self, HybridRunKiosk.self, HybridRunCtl.self, HybridRunPackage.self, HybridRunWebDriver.self,
                      HybridRunDoctor.self, HybridRunMcp.self, HybridRunInit.self, HybridRunDev.self, HybridRunBundle.self,
                      HybridRunApp.self],
        defaultSubcommand: HybridRun.self
    )

    /// The names a first argument is read as (the subcommands and `help`).
    static var commandNames: Set<String> {
        Set(configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
    }
}

/// Checks of flags against each other, run after parsing instead of in `validate()`: ArgumentParser
/// validates before it reports unknown options, so `--bogus VALUE` (VALUE read as a page) would be
/// blamed on the page instead of on `--bogus`.
protocol CheckedCommand: ParsableCommand {
    func checkFlags() throws
}
