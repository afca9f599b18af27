import HybridShell
/// Everything `hybrid-run test` was asked to do, validated.
struct TestRunOptions: Sendable {
    /// The pages after expansion, sorting and sharding.
    var pages: [TestPage] = []
    var shard: TestShard?
    var executor = WebKitPageTestExecutor.Settings()
    var reporters: [ReporterChoice] = [ReporterChoice(kind: .list, destination: .standardOutput)]
    var workers = 1
    var retries = 0
    var maxFailures: Int?
    var globalTimeout: Duration?
    var passWithNoTests = false
    /// Print the tests instead of running them.
    var list: Bool { executor.adapter.list }
    /// `--merge`: JSON reports of earlier runs (shards) to merge and report instead of running pages.
    var mergeReports: [String] = []
    /// Warnings found while reading the arguments (a glob that matched nothing).
    var warnings: [String] = []

    init() {}
}
