/// A reporter event the test adapter in the page sends to native (`hybrid.call("hybridshell.test",
/// event)`); bridge-js/src/testing describes each.
package enum PageTestEvent: Sendable, Equatable {
    package struct Counts: Sendable, Equatable {
        var passed = 0, failed = 0, skipped = 0, todo = 0
        var total: Int { passed + failed + skipped + todo }
    }

    /// The window `load` event fired; these framework globals were present.
    case loaded(frameworks: [String])
    case runStart(framework: String, version: String?, total: Int?)
    case testStart(name: String, suite: [String])
    case testEnd(name: String, suite: [String], status: TestStatus, duration: Double, failures: [TestFailure])
    /// `failures` happened outside any test (after-all hooks, errors between tests).
    case runEnd(status: String, duration: Double, counts: Counts?, failures: [TestFailure])
    /// List mode: the tests that would run.
    case list(tests: [(name: String, suite: [String])])
    /// The framework broke outside any test.
    case error(message: String, stack: String?)

    package static func == (a: PageTestEvent, b: PageTestEvent) -> Bool {
        switch (a, b) {
        case (.list(let x), .list(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.name == $1.name && $0.suite == $1.suite }
        case (.loaded(let x), .loaded(let y)): x == y
        case (.runStart(let f1, let v1, let t1), .runStart(let f2, let v2, let t2)): f1 == f2 && v1 == v2 && t1 == t2
        case (.testStart(let n1, let s1), .testStart(let n2, let s2)): n1 == n2 && s1 == s2
        case (.testEnd(let n1, let s1, let st1, let d1, let f1), .testEnd(let n2, let s2, let st2, let d2, let f2)):
            n1 == n2 && s1 == s2 && st1 == st2 && d1 == d2 && f1 == f2
        case (.runEnd(let s1, let d1, let c1, let f1), .runEnd(let s2, let d2, let c2, let f2)):
            s1 == s2 && d1 == d2 && c1 == c2 && f1 == f2
        case (.error(let m1, let s1), .error(let m2, let s2)): m1 == m2 && s1 == s2
        default: false
        }
    }

    /// Reads an event; a malformed one is an error naming the field, which the page gets back as
    /// an `INVALID_MESSAGE` reply.
    package init(_ value: JSONValue) throws(BridgeError) {
        let reader = Reader(value: value, path: "event")
        let kind = try reader.string("event")
        switch kind {
        case "loaded":
            self = .loaded(frameworks: try reader.strings("frameworks"))
        case "runStart":
            self = .runStart(framework: try reader.string("framework"), version: try reader.optionalString("version"),
                             total: try reader.optionalInt("total"))
        case "testStart":
            self = .testStart(name: try reader.string("name"), suite: try reader.strings("suite", default: []))
        case "testEnd":
            let status = try reader.string("status")
            guard let parsed = TestStatus(rawValue: status) else {
                throw reader.invalid("status", "expected passed, failed, skipped or todo, got \(JSONValue.quoted(status))")
            }
            self = .testEnd(name: try reader.string("name"), suite: try reader.strings("suite", default: []), status: parsed,
                            duration: try reader.optionalNumber("duration") ?? 0, failures: try reader.failures("failures"))
        case "runEnd":
            var counts: Counts?
            if let object = reader.value["counts"], !object.isNull {
                let countsReader = Reader(value: object, path: "event.counts")
                counts = Counts(passed: try countsReader.optionalInt("passed") ?? 0, failed: try countsReader.optionalInt("failed") ?? 0,
                                skipped: try countsReader.optionalInt("skipped") ?? 0, todo: try countsReader.optionalInt("todo") ?? 0)
            }
            self = .runEnd(status: try reader.optionalString("status") ?? "passed", duration: try reader.optionalNumber("duration") ?? 0,
                           counts: counts, failures: try reader.failures("failures"))
        case "list":
            guard let items = reader.value["tests"]?.arrayValue else { throw reader.invalid("tests", "expected an array") }
            var tests: [(name: String, suite: [String])] = []
            for (index, item) in items.enumerated() {
                let itemReader = Reader(value: item, path: "event.tests[\(index)]")
                tests.append((try itemReader.string("name"), try itemReader.strings("suite", default: [])))
            }
            self = .list(tests: tests)
        case "error":
            self = .error(message: try reader.string("message"), stack: try reader.optionalString("stack"))
        default:
            throw reader.invalid("event", "unknown event \(JSONValue.quoted(kind))")
        }
    }

    private struct Reader {
        let value: JSONValue
        let path: String

        func invalid(_ key: String, _ message: String) -> BridgeError {
            BridgeError(.invalidMessage, "\(path).\(key): \(message)")
        }

        func string(_ key: String) throws(BridgeError) -> String {
            guard let member = value[key] else { throw invalid(key, "missing") }
            guard let string = member.stringValue else { throw invalid(key, "expected a string, got \(member.typeName)") }
            return string
        }

        func optionalString(_ key: String) throws(BridgeError) -> String? {
            guard let member = value[key], !member.isNull else { return nil }
            guard let string = member.stringValue else { throw invalid(key, "expected a string or null, got \(member.typeName)") }
            return string
        }

        func optionalNumber(_ key: String) throws(BridgeError) -> Double? {
            guard let member = value[key], !member.isNull else { return nil }
            guard let number = member.doubleValue, number.isFinite, number >= 0 else {
                throw invalid(key, "expected a number of milliseconds, got \(member.typeName)")
            }
            return number
        }

        func optionalInt(_ key: String) throws(BridgeError) -> Int? {
            guard let member = value[key], !member.isNull else { return nil }
            guard let number = member.intValue, number >= 0 else { throw invalid(key, "expected a count, got \(member.jsonText)") }
            return number
        }

        func strings(_ key: String, default fallback: [String]? = nil) throws(BridgeError) -> [String] {
            guard let member = value[key], !member.isNull else {
                if let fallback { return fallback }
                throw invalid(key, "missing")
            }
            guard let items = member.arrayValue else { throw invalid(key, "expected an array of strings, got \(member.typeName)") }
            var strings: [String] = []
            for (index, item) in items.enumerated() {
                guard let string = item.stringValue else { throw invalid("\(key)[\(index)]", "expected a string, got \(item.typeName)") }
                strings.append(string)
            }
            return strings
        }

        func failures(_ key: String) throws(BridgeError) -> [TestFailure] {
            guard let member = value[key], !member.isNull else { return [] }
            guard let items = member.arrayValue else { throw invalid(key, "expected an array, got \(member.typeName)") }
            var failures: [TestFailure] = []
            for (index, item) in items.enumerated() {
                let reader = Reader(value: item, path: "\(path).\(key)[\(index)]")
                let kind = try reader.optionalString("kind") ?? "assertion"
                guard let parsed = TestFailure.Kind(rawValue: kind) else {
                    throw reader.invalid("kind", "expected assertion or error, got \(JSONValue.quoted(kind))")
                }
                failures.append(TestFailure(kind: parsed, message: try reader.optionalString("message") ?? "",
                                            stack: PageTestEvent.pageFrames(try reader.optionalString("stack")), actual: try reader.optionalString("actual"),
                                            expected: try reader.optionalString("expected")))
            }
            return failures
        }
    }

    /// A stack without the frames of HybridShell's own user scripts (`user-script:N:…`, the test
    /// adapter and the bridge): they are the same in every failure and hide the page's frames.
    /// Nil when nothing is left.
    static func pageFrames(_ stack: String?) -> String? {
        guard let stack else { return nil }
        let kept = stack.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("@user-script:") && !$0.hasPrefix("user-script:") }
        let text = kept.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
