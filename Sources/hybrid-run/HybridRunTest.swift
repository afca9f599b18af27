import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run test PAGES…`: the flags only gather values; ``TestCommand`` (in the library) runs.
struct HybridRunTest: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run test pages (QUnit, Mocha, Jasmine or hybrid.test) in WebKit and report honestly.",
        discussion: """
            Pages are files, directories (every .html below), quoted globs ('tests/**/*.html') or URLs; they \
            run sorted by name. The framework is detected on each page. Results go to the reporters; every \
            run ends with the line "hybrid-run: N passed, N failed, N skipped".

            Examples:
              xvfb-run -a hybrid-run test tests/
              xvfb-run -a hybrid-run test 'tests/**/*.html' --workers 2 --reporter dot
              xvfb-run -a hybrid-run test tests/ --reporter junit:junit.xml --retries 1
              xvfb-run -a hybrid-run test tests/ --shard 2/4 --reporter json:shard-2.json
              hybrid-run test --merge shard-*.json --reporter junit:junit.xml

            Exit codes: 0 all passed · 1 a test failed · 2 a page could not run (load failed, crash, no \
            bridge, no framework started) · 3 timeout (a hung page) · 4 usage error · 5 no tests found.
            """
    )

    @Argument(help: ArgumentHelp("Test pages: files, directories, quoted globs or URLs. Example: hybrid-run test tests/", valueName: "pages"))
    var pages: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "The test framework of the pages: auto (detect), qunit, mocha, jasmine or hybrid. Example: --framework mocha", valueName: "name"))
    var framework: String = "auto"

    @Option(name: .long, help: ArgumentHelp(
        "A reporter: list (default), dot, tap, junit, json or html (repeatable). Without a path it writes to stdout (at most one may); with :PATH it writes that file; html writes DIR/index.html (html:DIR, default <output>/html). Example: --reporter tap --reporter junit:junit.xml --reporter html",
        valueName: "name[:path]"))
    var reporter: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Where screenshots and an html report without a directory go (default test-results). Example: --output build/test-results",
        valueName: "dir"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "When to save a PNG of the page: off, on (after every test) or only-on-failure (default). Example: --screenshot off",
        valueName: "when"))
    var screenshot: String = ScreenshotMode.onlyOnFailure.rawValue

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Seconds one test may run; passed to the framework, and enforced. Default: the framework's own. Example: --timeout 5", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds one page may take in all (default 300). Example: --page-timeout 60", valueName: "seconds"))
    var pageTimeout: Double = 300

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds the whole run may take (default: no limit). Example: --global-timeout 600", valueName: "seconds"))
    var globalTimeout: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Seconds without any test event after which a page counts as hung: its web process is killed and the run goes on (default 30). Example: --idle-timeout 10",
        valueName: "seconds"))
    var idleTimeout: Double = 30

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Run a page again up to N times when a test failed, it crashed or timed out; tests that pass on a retry are reported as flaky. Example: --retries 2",
        valueName: "n"))
    var retries: Int = 0

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Pages run in parallel, each in its own web view (1-16, default 1). Example: --workers 2", valueName: "n"))
    var workers: Int = 1

    @Option(name: .long, help: ArgumentHelp("Run only the I-th of N slices of the pages. Example: --shard 2/4", valueName: "I/N"))
    var shard: String?

    @Option(name: .long, help: ArgumentHelp(
        "Only run tests whose full name (suites › test) matches this JavaScript regular expression (/re/flags allowed). Example: --grep 'cart|checkout'",
        valueName: "regex"))
    var grep: String?

    @Option(name: .long, help: ArgumentHelp("Only run tests whose full name does not match. Example: --grep-invert '@slow'", valueName: "regex"))
    var grepInvert: String?

    @Flag(name: .long, help: "List the tests each page would run, without running them. Example: --list")
    var list = false

    @Flag(name: .long, help: ArgumentHelp(
        "Merge JSON reports of earlier runs (e.g. shards) given instead of pages, and report them as one run. Example: --merge shard-*.json --reporter junit:junit.xml"))
    var merge = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Stop after N failed tests (pages not run are reported as cancelled). Example: --max-failures 1", valueName: "n"))
    var maxFailures: Int?

    @Flag(name: .long, help: "Exit 0 when no tests are found (otherwise 5). Example: --pass-with-no-tests")
    var passWithNoTests = false

    @Option(name: .long, help: ArgumentHelp(
        "Fake native handlers for the pages from a JSON file (see hybrid-run --help). Example: --handlers mocks.json", valueName: "file"))
    var handlers: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also give pages from these origins a working bridge (repeatable). Example: --allow-origin 'http://127.0.0.1:*'", valueName: "pattern"))
    var allowOrigin: [String] = []

    @Option(name: .long, help: ArgumentHelp("Viewport size (default 1280x800). Example: --size 800x600", valueName: "WxH"))
    var size: String = "1280x800"

    @Option(name: .long, help: ArgumentHelp("Append a token to the user agent. Example: --user-agent-suffix MyApp/1.2", valueName: "token"))
    var userAgentSuffix: String?

    @Flag(name: .long, help: ArgumentHelp(
        "Faster, less honest: reuse one view per worker and one cookie/storage jar for the run, so a page sees what earlier pages left (storage, cookies, window.name, history) and results can depend on page order, --workers and --shard. Default: each page starts as if it were the first. Example: --shared-state"))
    var sharedState = false

    @Flag(name: .long, help: "Show the pages in a real window (for debugging). Example: --window --workers 1")
    var window = false

    @OptionGroup var displayOption: DisplayOption

    // Native modules (issue 15): their flags live in TestModuleOptions.
    @OptionGroup(title: "Native modules") var moduleOptions: TestModuleOptions

    func checkFlags() throws {
        if grep != nil, grepInvert != nil { throw ValidationError("give --grep or --grep-invert, not both") }
        if merge, list || shard != nil { throw ValidationError("--merge reports earlier runs; it takes no --list or --shard") }
    }

    func options(workingDirectory: String = FileManager.default.currentDirectoryPath) throws -> TestRunOptions {
        var options = TestRunOptions()
        if merge {
            guard !pages.isEmpty else { throw ShellError.invalidArgument("--merge needs the JSON reports to merge (e.g. shard-*.json)") }
            options.mergeReports = pages
            options.reporters = try reporter.isEmpty ? [ReporterChoice(kind: .list, destination: .standardOutput)]
                : reporter.map { try ReporterChoice(parsing: $0, outputDirectory: output) }
            try ReporterChoice.validate(options.reporters)
            options.passWithNoTests = passWithNoTests
            return options
        }
        guard !pages.isEmpty else { throw ShellError.invalidArgument("no test pages given (see hybrid-run test --help)") }
        let (found, warnings) = try TestPageList(workingDirectory: workingDirectory).expand(pages)
        options.warnings = warnings
        if let shard {
            let parsed = try TestShard(parsing: shard)
            options.shard = parsed
            options.pages = parsed.select(found)
        } else {
            options.pages = found
        }

        var settings = WebKitPageTestExecutor.Settings()
        guard let parsedFramework = TestAdapterOptions.Framework(rawValue: framework) else {
            throw ShellError.invalidArgument("--framework takes \(TestAdapterOptions.Framework.allCases.map(\.rawValue).joined(separator: ", ")), not \(JSONValue.quoted(framework))")
        }
        settings.adapter.framework = parsedFramework
        if let pattern = grep ?? grepInvert {
            settings.adapter.grep = try TestNameFilter.parse(pattern, flag: grep != nil ? "--grep" : "--grep-invert")
            settings.adapter.grepInvert = grepInvert != nil
        }
        settings.adapter.list = list
        if let timeout {
            let limit = try Self.seconds(timeout, "--timeout")
            settings.adapter.testTimeout = limit
            // The framework's own timeout fails the test first; ours catches a page that cannot.
            settings.limits.test = limit + .seconds(2)
        }
        settings.limits.page = try Self.seconds(pageTimeout, "--page-timeout")
        settings.limits.idle = try Self.seconds(idleTimeout, "--idle-timeout")
        guard let mode = ScreenshotMode(rawValue: screenshot) else {
            throw ShellError.invalidArgument("--screenshot takes off, on or only-on-failure, not \(JSONValue.quoted(screenshot))")
        }
        settings.screenshots = mode
        settings.screenshotDirectory = (output ?? "test-results") + "/screenshots"
        let (width, height) = try ViewportSize.parse(size)
        settings.width = width
        settings.height = height
        if let userAgentSuffix { settings.userAgent = .appending(userAgentSuffix) }
        try settings.userAgent.validate()
        settings.window = window ? .visible() : .offscreen
        settings.isolation = sharedState ? .shared : .perPage
        settings.additionalOrigins = try allowOrigin.map { try OriginPattern(parsing: $0) }
        if let handlers { settings.mockHandlers = try MockHandlers.load(path: handlers) }
        try moduleOptions.apply(to: &settings)
        settings.appName = "hybrid-run test"
        settings.runnerName = "hybrid-run"
        options.executor = settings

        options.reporters = try reporter.isEmpty ? [ReporterChoice(kind: .list, destination: .standardOutput)]
            : reporter.map { try ReporterChoice(parsing: $0, outputDirectory: output) }
        try ReporterChoice.validate(options.reporters)
        guard (1...16).contains(workers) else { throw ShellError.invalidArgument("--workers takes 1 to 16, not \(workers)") }
        options.workers = workers
        guard (0...10).contains(retries) else { throw ShellError.invalidArgument("--retries takes 0 to 10, not \(retries)") }
        options.retries = retries
        if let maxFailures {
            guard maxFailures >= 1 else { throw ShellError.invalidArgument("--max-failures takes a number of tests from 1, not \(maxFailures)") }
            options.maxFailures = maxFailures
        }
        options.globalTimeout = try globalTimeout.map { try Self.seconds($0, "--global-timeout") }
        options.passWithNoTests = passWithNoTests
        return options
    }

    private static func seconds(_ value: Double, _ flag: String) throws -> Duration {
        guard value > 0, value.isFinite, value <= 86_400 else {
            throw ShellError.invalidArgument("\(flag) takes a positive number of seconds up to 86400, not \(value)")
        }
        return .milliseconds(Int64((value * 1000).rounded()))
    }
}
