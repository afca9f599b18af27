/// The deadlines one test page runs under.
public struct PageTestLimits: Sendable, Equatable {
    /// No reporter or load event for this long: the page is hung (`--idle-timeout`).
    public var idle: Duration = .seconds(30)
    /// The whole page, from load to the framework's end (`--page-timeout`).
    public var page: Duration? = .seconds(300)
    /// One test, from its start to its end (`--timeout`, plus a grace so the framework's own
    /// timeout can fail the test first).
    public var test: Duration?
    /// After load, when the page has no test framework at all.
    public var noFramework: Duration = .seconds(5)
    /// After load, when a framework is there but the page threw before it started.
    public var startAfterError: Duration = .seconds(1)
    /// After load, for the bridge's handshake.
    public var bridge: Duration = .seconds(10)

    public init() {}
}
