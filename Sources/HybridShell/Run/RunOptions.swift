/// Everything `hybrid-run --url` needs, already validated by the command line layer.
public struct RunOptions: Sendable {
    /// The page: a URL template with its parameters, headers, timeout and cache policy.
    public var route: WebRoute
    /// Global settings and per-page overrides (a `--config` file, then flags on top).
    public var shell = ShellConfiguration()
    public var exitAfter: ExitCondition?
    /// How long `--exit-after load|close` may take before exit code 3.
    public var timeout: Duration?
    public var printEvents = false
    public var printConsole = true
    public var developerExtras = false
    /// Native handlers faked from a file (`--handlers`).
    public var mockHandlers: MockHandlers?
    /// Page handlers to call once the bridge is ready (`--call NAME=JSON`), in order.
    public var calls: [(name: String, data: RawJSON)] = []
    public var bridgeLog: String?

    public init(route: WebRoute) {
        self.route = route
    }
}
