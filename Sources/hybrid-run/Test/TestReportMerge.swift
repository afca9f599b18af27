import HybridShell
/// Reads ``JSONReporter`` documents back and merges the reports of a sharded run
/// (`--shard 1/4` … `--shard 4/4`) into one, as if one run had run every page.
enum TestReportMerge {
    /// Reads one JSON report. Strict about what it needs: every field ``JSONReporter`` writes
    /// must be there with its type (`summary` and `fullName` are derived and skipped; other
    /// unknown keys are ignored so later versions can add fields). Errors name the JSON path:
    /// `invalid test report: pages[3].tests[0].status: expected one of passed|failed|skipped|todo, got "pass"`.
    static func decode(_ text: String) throws(ShellError) -> TestRunSummary {
        let root: JSONValue
        do {
            root = try JSONParser().parse(text)
        } catch {
            throw .invalidArgument("invalid test report: \(error.description)")
        }
        return try summary(Field(root, path: ""))
    }

    /// One run made of several: pages concatenated and sorted by page (pages with the same name
    /// keep their order), the longest duration (shards run side by side, so the slowest one is the
    /// run's wall time), no shard, the first interruption, and `passWithNoTests` only when every
    /// report had it.
    static func merge(_ summaries: [TestRunSummary]) -> TestRunSummary {
        let pages = summaries.flatMap(\.pages).enumerated()
            .sorted { ($0.element.page, $0.offset) < ($1.element.page, $1.offset) }
            .map(\.element)
        return TestRunSummary(
            pages: pages,
            duration: summaries.map(\.duration).max() ?? 0,
            shard: nil,
            interruption: summaries.lazy.compactMap(\.interruption).first,
            passWithNoTests: !summaries.isEmpty && summaries.allSatisfy(\.passWithNoTests)
        )
    }

    /// Refuses to merge a report twice: two reports of the same run (`run` id), or two of the same
    /// shard (`I/N`), would count their pages twice. `names` label the reports in the error (their
    /// files), in the order of `summaries`.
    public static func checkDistinct(_ summaries: [TestRunSummary], names: [String]) throws(ShellError) {
        for (index, summary) in summaries.enumerated() {
            for earlier in 0..<index {
                let other = summaries[earlier]
                let name = index < names.count ? names[index] : "report \(index + 1)"
                let otherName = earlier < names.count ? names[earlier] : "report \(earlier + 1)"
                if let shard = summary.shard, let otherShard = other.shard, shard == otherShard {
                    throw .invalidArgument("\(name) is shard \(shard.index)/\(shard.count) again (already merged from \(otherName)); merge each shard once")
                }
                if let run = summary.runID, run == other.runID {
                    throw .invalidArgument("\(name) is the same run as \(otherName) (run \(run)); merge each report once")
                }
            }
        }
    }

    private static func summary(_ root: Field) throws(ShellError) -> TestRunSummary {
        _ = try root.object()
        guard try root["tool"].string() == "hybrid-run" else { throw root["tool"].failure("expected \"hybrid-run\"") }
        let version = try root["version"].int()
        guard version == JSONReporter.formatVersion else {
            throw root["version"].failure("expected \(JSONReporter.formatVersion) (the report format this hybrid-run reads)")
        }
        let shardField = root["shard"]
        var shard: (index: Int, count: Int)?
        if try shardField.object(nullable: true) != nil {
            shard = (try shardField["index"].int(), try shardField["count"].int())
        }
        var summary = TestRunSummary(
            pages: try root["pages"].array().map(page),
            duration: try root["summary"]["duration"].number(),
            shard: shard,
            interruption: try interruption(root["interruption"]),
            passWithNoTests: try root["passWithNoTests"].bool()
        )
        // Reports written before runs had an identity have none.
        summary.runID = root["run"].value == nil ? nil : try root["run"].string(nullable: true)
        return summary
    }

    private static func interruption(_ field: Field) throws(ShellError) -> TestRunInterruption? {
        guard try field.object(nullable: true) != nil else { return nil }
        let kind = field["kind"]
        switch try kind.string() {
        case "maxFailures": return .maxFailures(try field["maxFailures"].int())
        case "globalTimeout": return .globalTimeout
        case "signal": return .signal
        default: throw kind.failure("expected one of maxFailures|globalTimeout|signal")
        }
    }

    private static func page(_ field: Field) throws(ShellError) -> PageTestResult {
        _ = try field.object()
        return PageTestResult(
            page: try field["page"].string(),
            url: try field["url"].string(),
            framework: try field["framework"].string(nullable: true),
            outcome: try outcome(field),
            tests: try field["tests"].array().map(test),
            console: try field["console"].array().map(console),
            duration: try field["duration"].number(),
            attempts: try field["attempts"].int(),
            screenshot: try field["screenshot"].string(nullable: true),
            worker: try field["worker"].int()
        )
    }

    private static func outcome(_ page: Field) throws(ShellError) -> PageTestOutcome {
        let name = page["outcome"]
        let reasonField = page["reason"]
        switch try name.string() {
        case "completed":
            guard try reasonField.string(nullable: true) == nil else { throw reasonField.failure("expected null for a completed page") }
            return .completed
        case "noTests":
            _ = try reasonField.string(nullable: true)
            return .noTests
        case "loadFailed": return .loadFailed(try reasonField.string())
        case "crashed": return .crashed(try reasonField.string())
        case "bridgeUnavailable": return .bridgeUnavailable(try reasonField.string())
        case "frameworkNotStarted": return .frameworkNotStarted(try reasonField.string())
        case "timedOut": return .timedOut(try reasonField.string())
        case "cancelled": return .cancelled(try reasonField.string())
        default:
            throw name.failure("expected one of completed|noTests|loadFailed|crashed|bridgeUnavailable|frameworkNotStarted|timedOut|cancelled")
        }
    }

    private static func test(_ field: Field) throws(ShellError) -> TestCaseResult {
        _ = try field.object()
        return TestCaseResult(
            name: try field["name"].string(),
            suite: try field["suite"].array().map { (item: Field) throws(ShellError) in try item.string() },
            status: try field["status"].oneOf(TestStatus.self),
            duration: try field["duration"].number(),
            failures: try field["failures"].array().map(failure),
            console: try field["console"].array().map(console),
            flaky: try field["flaky"].bool(),
            attempts: try field["attempts"].int(),
            screenshot: try field["screenshot"].string(nullable: true),
            // Reports written before retries kept earlier failures have none.
            earlierFailures: field["earlierFailures"].value == nil ? [] : try field["earlierFailures"].array().map(failure)
        )
    }

    private static func failure(_ field: Field) throws(ShellError) -> TestFailure {
        _ = try field.object()
        return TestFailure(
            kind: try field["kind"].oneOf(TestFailure.Kind.self, names: ["assertion", "error"]),
            message: try field["message"].string(),
            stack: try field["stack"].string(nullable: true),
            actual: try field["actual"].string(nullable: true),
            expected: try field["expected"].string(nullable: true)
        )
    }

    private static func console(_ field: Field) throws(ShellError) -> ConsoleMessage {
        _ = try field.object()
        return ConsoleMessage(
            level: try field["level"].oneOf(ConsoleMessage.Level.self),
            source: try field["source"].oneOf(ConsoleMessage.Source.self, names: ["console", "exception", "rejection"]),
            text: try field["text"].string(),
            url: try field["url"].string(),
            line: try field["line"].int(),
            column: try field["column"].int()
        )
    }

    /// A value in the document and its path (`pages[3].tests[0].status`), for errors that say
    /// where. A missing member is a `Field` without a value, which fails when it is read.
    private struct Field {
        let value: JSONValue?
        let path: String

        init(_ value: JSONValue?, path: String) {
            self.value = value
            self.path = path
        }

        subscript(key: String) -> Field {
            Field(value?[key], path: path.isEmpty ? key : path + "." + key)
        }

        func failure(_ expectation: String) -> ShellError {
            let place = path.isEmpty ? "the document" : path
            let problem: String
            switch value {
            case nil: problem = "missing (\(expectation))"
            case .string(let text)?: problem = expectation + ", got " + JSONValue.quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text)
            case .number(let number)?: problem = expectation + ", got " + JSONValue.numberText(number)
            case let other?: problem = expectation + ", got " + other.typeName
            }
            return .invalidArgument("invalid test report: \(place): \(problem)")
        }

        /// The members of an object; nil for `null` when `nullable`.
        @discardableResult
        func object(nullable: Bool = false) throws(ShellError) -> [String: JSONValue]? {
            if nullable, value == .null { return nil }
            guard let members = value?.objectValue else { throw failure(nullable ? "expected an object or null" : "expected an object") }
            return members
        }

        func array() throws(ShellError) -> [Field] {
            guard let items = value?.arrayValue else { throw failure("expected an array") }
            return items.indices.map { Field(items[$0], path: path + "[\($0)]") }
        }

        func string() throws(ShellError) -> String {
            guard let text = value?.stringValue else { throw failure("expected a string") }
            return text
        }

        func string(nullable: Bool) throws(ShellError) -> String? {
            if nullable, value == .null { return nil }
            guard let text = value?.stringValue else { throw failure(nullable ? "expected a string or null" : "expected a string") }
            return text
        }

        func number() throws(ShellError) -> Double {
            guard let number = value?.doubleValue else { throw failure("expected a number") }
            return number
        }

        func int() throws(ShellError) -> Int {
            guard let number = value?.intValue else { throw failure("expected an integer") }
            return number
        }

        func bool() throws(ShellError) -> Bool {
            guard let flag = value?.boolValue else { throw failure("expected true or false") }
            return flag
        }

        func oneOf<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws(ShellError) -> T where T.RawValue == String {
            try oneOf(type, names: T.allCases.map(\.rawValue))
        }

        func oneOf<T: RawRepresentable>(_ type: T.Type, names: [String]) throws(ShellError) -> T where T.RawValue == String {
            guard let text = value?.stringValue, let result = T(rawValue: text) else {
                throw failure("expected one of " + names.joined(separator: "|"))
            }
            return result
        }
    }
}
