@testable import HybridShellCore
import Testing

/// How a page's run ends, decided from events and deadlines on a fake clock.
@Suite("Page test monitor (pure)")
struct PageTestMonitorTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1000)) }

    func monitor(_ configure: (inout PageTestLimits) -> Void = { _ in }) -> PageTestMonitor {
        var limits = PageTestLimits()
        configure(&limits)
        return PageTestMonitor(limits: limits, screenshots: .onlyOnFailure, now: start)
    }

    func console(_ text: String, _ source: ConsoleMessage.Source = .consoleAPI) -> ConsoleMessage {
        ConsoleMessage(level: source == .consoleAPI ? .log : .error, source: source, text: text, url: "file:///t.html", line: 3, column: 1)
    }

    /// Loads the page and connects the bridge.
    func loaded(_ monitor: inout PageTestMonitor, frameworks: [String] = ["qunit"]) {
        _ = monitor.handle(.committed(url: "file:///t.html"), at: at(0.01))
        _ = monitor.handle(.bridgeReady, at: at(0.02))
        _ = monitor.handle(.loadFinished, at: at(0.03))
        _ = monitor.handle(.event(.loaded(frameworks: frameworks)), at: at(0.03))
    }

    @Test func aCompleteRunCountsItsTestsAndAttributesConsoleByArrival() {
        var monitor = monitor()
        loaded(&monitor)
        _ = monitor.handle(.console(console("before")), at: at(0.04))
        _ = monitor.handle(.event(.runStart(framework: "qunit", version: "1.23.1", total: 2)), at: at(0.05))
        _ = monitor.handle(.event(.testStart(name: "a", suite: ["m"])), at: at(0.06))
        _ = monitor.handle(.console(console("inside a")), at: at(0.07))
        _ = monitor.handle(.event(.testEnd(name: "a", suite: ["m"], status: .passed, duration: 1, failures: [])), at: at(0.08))
        let failure = TestFailure(kind: .assertion, message: "nope", actual: "1", expected: "2")
        _ = monitor.handle(.event(.testStart(name: "b", suite: ["m"])), at: at(0.09))
        let actions = monitor.handle(.event(.testEnd(name: "b", suite: ["m"], status: .failed, duration: 2, failures: [failure])), at: at(0.1))
        #expect(actions == [.screenshot(testIndex: 1)])
        let end = monitor.handle(.event(.runEnd(status: "failed", duration: 3, counts: .init(passed: 1, failed: 1), failures: [])), at: at(0.11))
        #expect(end == [.finish(.completed)])
        #expect(monitor.framework == "qunit")
        #expect(monitor.tests.map(\.status) == [.passed, .failed])
        #expect(monitor.tests[0].console.map(\.text) == ["inside a"])
        #expect(monitor.tests[1].failures == [failure])
        #expect(monitor.console.map(\.text) == ["before"])
        #expect(monitor.notes.isEmpty)
        #expect(monitor.nextDeadline == nil)
    }

    @Test func failuresOutsideTestsBecomeAFailedEntryAndCountMismatchesAreNoted() {
        var monitor = monitor()
        loaded(&monitor)
        _ = monitor.handle(.event(.runStart(framework: "mocha", version: nil, total: nil)), at: at(0.05))
        _ = monitor.handle(.event(.testEnd(name: "a", suite: [], status: .passed, duration: 1, failures: [])), at: at(0.06))
        let hook = TestFailure(kind: .error, message: "after all hook threw")
        _ = monitor.handle(.event(.runEnd(status: "failed", duration: 3, counts: .init(passed: 2), failures: [hook])), at: at(0.07))
        #expect(monitor.outcome == .completed)
        #expect(monitor.tests.last?.name == "(outside any test)")
        #expect(monitor.tests.last?.failures == [hook])
        #expect(monitor.notes == ["the framework counted 2 tests but reported 1"])
    }

    @Test func zeroTestsIsNoTests() {
        var monitor = monitor()
        loaded(&monitor)
        _ = monitor.handle(.event(.runStart(framework: "hybrid", version: nil, total: 0)), at: at(0.05))
        #expect(monitor.handle(.event(.runEnd(status: "passed", duration: 0, counts: nil, failures: [])), at: at(0.06)) == [.finish(.noTests)])
    }

    @Test func aPageWithoutFrameworkFailsSoonAfterLoad() {
        var monitor = monitor()
        loaded(&monitor, frameworks: [])
        #expect(monitor.nextDeadline == at(0.03) + .seconds(5))
        #expect(monitor.expire(at: at(1)) == [])
        guard case .finish(.frameworkNotStarted(let reason))? = monitor.expire(at: at(5.1)).first else {
            Issue.record("expected frameworkNotStarted, got \(String(describing: monitor.outcome))")
            return
        }
        #expect(reason.contains("no test framework started"))
    }

    @Test func aRequestedFrameworkThePageLacksFailsSoonAfterLoadNamingWhatItHas() {
        var monitor = PageTestMonitor(limits: PageTestLimits(), requestedFramework: "jasmine", now: start)
        loaded(&monitor, frameworks: ["qunit"])
        #expect(monitor.nextDeadline == at(0.03) + .seconds(5))
        #expect(monitor.expire(at: at(5.1)).first == .finish(.frameworkNotStarted("--framework jasmine: the page has no jasmine tests (it has qunit)")))

        var present = PageTestMonitor(limits: PageTestLimits(), requestedFramework: "qunit", now: start)
        loaded(&present, frameworks: ["qunit"])
        #expect(present.nextDeadline == at(0.03) + PageTestLimits().idle, "a present framework gets the idle deadline")
    }

    @Test func aFrameworkThatThrowsBeforeStartingFailsFastWithTheError() {
        var monitor = monitor()
        _ = monitor.handle(.committed(url: "file:///t.html"), at: at(0.01))
        _ = monitor.handle(.bridgeReady, at: at(0.01))
        _ = monitor.handle(.console(console("TypeError: describe is broken", .uncaughtException)), at: at(0.02))
        _ = monitor.handle(.loadFinished, at: at(0.03))
        _ = monitor.handle(.event(.loaded(frameworks: ["mocha"])), at: at(0.03))
        #expect(monitor.nextDeadline == at(0.03) + .seconds(1))
        guard case .finish(.frameworkNotStarted(let reason))? = monitor.expire(at: at(1.1)).first else {
            Issue.record("expected frameworkNotStarted")
            return
        }
        #expect(reason == "mocha was loaded but never started; the page threw: TypeError: describe is broken (file:///t.html:3)")
    }

    @Test func aLoadedFrameworkThatNeverStartsIsReportedAtTheIdleDeadline() {
        var monitor = monitor { $0.idle = .seconds(10) }
        loaded(&monitor, frameworks: ["mocha"])
        #expect(monitor.nextDeadline == at(0.03) + .seconds(10))
        guard case .finish(.frameworkNotStarted(let reason))? = monitor.expire(at: at(10.1)).first else {
            Issue.record("expected frameworkNotStarted")
            return
        }
        #expect(reason == "mocha was loaded but never started within 10 s (does the page start it, e.g. mocha.run()?)")
    }

    @Test func aHungTestTimesOutAndIsFailedWithItsConsole() {
        var monitor = monitor { $0.idle = .seconds(10) }
        loaded(&monitor)
        _ = monitor.handle(.event(.runStart(framework: "qunit", version: nil, total: nil)), at: at(0.05))
        _ = monitor.handle(.event(.testStart(name: "spins", suite: ["m"])), at: at(0.06))
        _ = monitor.handle(.console(console("about to spin")), at: at(0.07))
        // Console output is not a sign of progress.
        _ = monitor.handle(.console(console("still spinning")), at: at(9))
        let actions = monitor.expire(at: at(10.1))
        #expect(actions == [.finish(.timedOut("no test event for 10 s while \"m › spins\" ran; the page seems hung"))])
        #expect(monitor.tests.map(\.name) == ["spins"])
        #expect(monitor.tests[0].status == .failed)
        #expect(monitor.tests[0].console.count == 2)
    }

    @Test func perTestAndPageDeadlines() {
        var monitor = monitor {
            $0.test = .seconds(2)
            $0.page = .seconds(60)
        }
        loaded(&monitor)
        _ = monitor.handle(.event(.runStart(framework: "hybrid", version: nil, total: nil)), at: at(0.05))
        _ = monitor.handle(.event(.testStart(name: "slow", suite: [])), at: at(1))
        #expect(monitor.nextDeadline == at(3))
        #expect(monitor.expire(at: at(3)) == [.finish(.timedOut("the test \"slow\" did not finish within 2 s"))])

        var whole = self.monitor { $0.page = .seconds(4) }
        loaded(&whole)
        _ = whole.handle(.event(.runStart(framework: "hybrid", version: nil, total: nil)), at: at(0.05))
        _ = whole.handle(.event(.testEnd(name: "one", suite: [], status: .passed, duration: 1, failures: [])), at: at(3.9))
        #expect(whole.expire(at: at(4)) == [.finish(.timedOut("the page did not finish within 4 s (--page-timeout)"))])
    }

    @Test func infrastructureFailures() {
        var failedLoad = monitor()
        #expect(failedLoad.handle(.loadFailed("failed to load x: not found"), at: at(0.1)) == [.finish(.loadFailed("failed to load x: not found"))])

        var crashed = monitor()
        loaded(&crashed)
        _ = crashed.handle(.event(.runStart(framework: "qunit", version: nil, total: nil)), at: at(0.1))
        _ = crashed.handle(.event(.testStart(name: "boom", suite: [])), at: at(0.2))
        #expect(crashed.handle(.crashed("the web process crashed"), at: at(0.3)) == [.finish(.crashed("the web process crashed"))])
        #expect(crashed.tests.map(\.status) == [.failed])

        var denied = monitor()
        #expect(denied.handle(.bridgeDenied("no"), at: at(0.1)) == [.finish(.bridgeUnavailable("no"))])

        var silentBridge = monitor()
        _ = silentBridge.handle(.committed(url: "file:///t.html"), at: at(0.01))
        _ = silentBridge.handle(.loadFinished, at: at(0.02))
        #expect(silentBridge.expire(at: at(10.03)) == [.finish(.bridgeUnavailable("the bridge never connected (no handshake 10 s after load)"))])

        var neverLoads = monitor { $0.idle = .seconds(3) }
        _ = neverLoads.handle(.committed(url: "http://x/"), at: at(0.01))
        #expect(neverLoads.expire(at: at(3.02)) == [.finish(.timedOut("the page did not finish loading within 3 s"))])
    }

    @Test func aRedirectBeforeTheRunIsFineButNavigatingAwayDuringItIsNot() {
        var monitor = monitor()
        _ = monitor.handle(.committed(url: "file:///redirect.html"), at: at(0.01))
        #expect(monitor.handle(.committed(url: "file:///t.html"), at: at(0.02)) == [])
        loaded(&monitor)
        _ = monitor.handle(.event(.runStart(framework: "qunit", version: nil, total: nil)), at: at(0.1))
        #expect(monitor.handle(.committed(url: "https://elsewhere/"), at: at(0.2))
                == [.finish(.bridgeUnavailable("the page navigated away to https://elsewhere/ before its tests finished"))])
    }

    @Test func frameworkErrorsBeforeAndDuringTheRun() {
        var before = monitor()
        loaded(&before)
        #expect(before.handle(.event(.error(message: "jasmine exploded", stack: nil)), at: at(0.1))
                == [.finish(.frameworkNotStarted("the test framework failed to start: jasmine exploded"))])

        var during = monitor()
        loaded(&during)
        _ = during.handle(.event(.runStart(framework: "mocha", version: nil, total: nil)), at: at(0.1))
        #expect(during.handle(.event(.error(message: "uncaught", stack: "at x")), at: at(0.2)) == [])
        #expect(during.tests.map(\.name) == ["(framework error)"])
    }

    @Test func listModeAndCancellation() {
        var list = monitor()
        loaded(&list)
        #expect(list.handle(.event(.list(tests: [("a", ["s"]), ("b", [])])), at: at(0.1)) == [.finish(.completed)])
        #expect(list.listed.map(\.name) == ["a", "b"])

        var cancelled = monitor()
        loaded(&cancelled)
        #expect(cancelled.cancel("stopped") == [.finish(.cancelled("stopped"))])
        #expect(cancelled.handle(.event(.runStart(framework: "x", version: nil, total: nil)), at: at(0.2)) == [])
    }

    @Test func screenshotsFollowTheMode() {
        var every = PageTestMonitor(limits: PageTestLimits(), screenshots: .on, now: start)
        var never = PageTestMonitor(limits: PageTestLimits(), screenshots: .off, now: start)
        loaded(&every)
        loaded(&never)
        let passed = PageTestEvent.testEnd(name: "a", suite: [], status: .passed, duration: 1, failures: [])
        let failed = PageTestEvent.testEnd(name: "b", suite: [], status: .failed, duration: 1, failures: [])
        #expect(every.handle(.event(passed), at: at(0.1)) == [.screenshot(testIndex: 0)])
        #expect(never.handle(.event(failed), at: at(0.1)) == [])
        // A failure without details still says something.
        #expect(never.tests[0].failures.first?.message == "the test failed without saying why")
    }
}
