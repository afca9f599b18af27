/// Everything `hybrid-run --url` needs, already validated by the command line layer.
public struct RunOptions: Sendable {
    public var url: String
    public var exitAfter: ExitCondition?
    /// How long `--exit-after load|close` may take before exit code 3.
    public var timeout: Duration?
    public var window: WebViewConfiguration.Window = .offscreen
    public var width = 1280
    public var height = 800
    public var userAgent: UserAgent = .engineDefault
    public var storage: WebContext.Storage = .ephemeral
    public var printEvents = false
    public var printConsole = true
    public var dialogPolicy: DialogPolicy = .automatic()
    public var newWindowPolicy: NewWindowPolicy = .sameView
    public var developerExtras = false
    /// Native handlers faked from a file (`--handlers`).
    public var mockHandlers: MockHandlers?
    /// Page handlers to call once the bridge is ready (`--call NAME=JSON`), in order.
    public var calls: [(name: String, data: RawJSON)] = []
    public var bridgeLog: String?
    /// Origins besides the page's own that get a working bridge (`--allow-origin`).
    public var allowedOrigins: [OriginPattern] = []
    public var injection: BridgeConfiguration.Injection = .documentStart

    public init(url: String) {
        self.url = url
    }
}
