import HybridShell
/// Everything `hybrid-run --url` needs, already validated by the command line layer.
struct RunOptions: Sendable {
    /// The page: a URL template with its parameters, headers, timeout and cache policy.
    var route: WebRoute
    /// Global settings and per-page overrides (a `--config` file, then flags on top).
    var shell = ShellConfiguration()
    var exitAfter: ExitCondition?
    /// How long `--exit-after load|close` may take before exit code 3.
    var timeout: Duration?
    var printEvents = false
    var printConsole = true
    var developerExtras = false
    /// Native handlers faked from a file (`--handlers`).
    var mockHandlers: MockHandlers?
    /// Page handlers to call once the bridge is ready (`--call NAME=JSON`), in order.
    var calls: [(name: String, data: RawJSON)] = []
    var bridgeLog: String?
    /// A main document answered with HTTP ≥ 400 still counts as loaded (`--allow-http-errors`).
    var allowHTTPErrors = false
    /// Installed offline packages served on `app://<appID>/` (a data directory was given).
    var packages: PackageRun?

    init(route: WebRoute) {
        self.route = route
    }
}
