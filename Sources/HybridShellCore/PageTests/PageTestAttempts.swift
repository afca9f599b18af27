/// Retries (`--retries N`): which attempts deserve another run, and how attempts fold into the
/// result reported for a page.
enum PageTestAttempts {
    /// A page is run again when a test failed, its web process crashed or it timed out: the kinds of
    /// trouble a retry can change. Load failures, missing frameworks and pages without tests are
    /// deterministic and reported at once.
    static func shouldRetry(_ result: PageTestResult) -> Bool {
        switch result.outcome {
        case .completed: result.count(.failed) > 0
        case .crashed, .timedOut: true
        case .noTests, .loadFailed, .bridgeUnavailable, .frameworkNotStarted, .cancelled: false
        }
    }

    /// The last attempt is the page's result; a test that failed in an earlier attempt and passed
    /// in the last one is flaky.
    static func fold(_ attempts: [PageTestResult]) -> PageTestResult {
        guard var result = attempts.last else { preconditionFailure("fold needs at least one attempt") }
        result.attempts = attempts.count
        guard attempts.count > 1 else { return result }
        var failedBefore: [String: [TestFailure]] = [:]
        for attempt in attempts.dropLast() {
            for test in attempt.tests where test.status == .failed {
                failedBefore[test.fullName, default: []].append(test.failures.first ?? TestFailure(message: "failed"))
            }
        }
        for index in result.tests.indices {
            result.tests[index].attempts = attempts.count
            let earlier = failedBefore[result.tests[index].fullName] ?? []
            result.tests[index].earlierFailures = earlier
            if result.tests[index].status == .passed, !earlier.isEmpty {
                result.tests[index].flaky = true
            }
        }
        return result
    }
}
