/// Everything `hybrid-run test` was asked to do, validated.
public struct TestRunOptions: Sendable {
    /// The pages after expansion, sorting and sharding.
    public var pages: [TestPage] = []
    public var shard: TestShard?
    public var executor = WebKitPageTestExecutor.Settings()
    public var reporters: [ReporterChoice] = [ReporterChoice(kind: .list, destination: .standardOutput)]
    public var workers = 1
    public var retries = 0
    public var maxFailures: Int?
    public var globalTimeout: Duration?
    public var passWithNoTests = false
    /// Print the tests instead of running them.
    public var list: Bool { executor.adapter.list }
    /// `--merge`: JSON reports of earlier runs (shards) to merge and report instead of running pages.
    public var mergeReports: [String] = []
    /// Warnings found while reading the arguments (a glob that matched nothing).
    public var warnings: [String] = []

    public init() {}
}
