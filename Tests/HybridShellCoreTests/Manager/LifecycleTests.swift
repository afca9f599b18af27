@testable import HybridShellCore
import Testing

@Suite("Lifecycle decisions and guarantees (pure)")
struct LifecycleTests {
    /// The seed's navigation-delegate decision: reload → nothing, new document → unload, pushed page → hide.
    @Test(arguments: [
        (NavigationAction(url: "https://a/1", kind: .reload), "https://a/1", false, LifecycleTransition.none),
        (NavigationAction(url: "https://a/2", kind: .linkClicked), "https://a/1", false, .unload),
        (NavigationAction(url: "https://a/2", kind: .formSubmitted, httpMethod: "POST"), "https://a/1", false, .unload),
        (NavigationAction(url: "https://a/0", kind: .backForward), "https://a/1", false, .unload),
        (NavigationAction(url: "https://a/1#top", kind: .linkClicked), "https://a/1", false, .none),
        (NavigationAction(url: "https://b/", kind: .other, opensNewWindow: true), "https://a/1", true, .hide),
        (NavigationAction(url: "https://b/", kind: .other, opensNewWindow: true), "https://a/1", false, .none),
        (NavigationAction(url: "https://a/1", kind: .other), "about:blank", false, .none),
        (NavigationAction(url: "https://a/1", kind: .other), nil, false, .none),
    ] as [(NavigationAction, String?, Bool, LifecycleTransition)])
    func navigationDecision(action: NavigationAction, current: String?, pushed: Bool, expected: LifecycleTransition) {
        #expect(LifecycleTransition.decide(action, currentURL: current, opensNewPage: pushed) == expected)
    }

    func run(_ signals: [PageLifecycle.Signal], onTop: Bool = true) -> [PageLifecycleEvent] {
        var lifecycle = PageLifecycle(onTop: onTop)
        return signals.flatMap { lifecycle.handle($0) }
    }

    @Test func readyPrecedesShowWhateverArrivesFirst() {
        #expect(run([.documentStarted, .loadFinished, .bridgeReady]) == [.ready, .show])
        #expect(run([.documentStarted, .bridgeReady, .loadFinished]) == [.ready, .show])
    }

    @Test func showAndHideAlternate() {
        #expect(run([.documentStarted, .bridgeReady, .loadFinished, .becameTop, .coveredOrHidden, .coveredOrHidden,
                     .becameTop, .becameTop, .coveredOrHidden]) == [.ready, .show, .hide, .show, .hide])
        #expect(run([.documentStarted, .bridgeReady, .coveredOrHidden, .loadFinished, .becameTop]) == [.ready, .show])
        #expect(run([.documentStarted, .bridgeReady, .loadFinished], onTop: false) == [.ready])
    }

    @Test func unloadIsLastAndOncePerDocument() {
        #expect(run([.documentStarted, .bridgeReady, .loadFinished, .documentEnding, .documentEnding, .becameTop, .bridgeReady])
                == [.ready, .show, .unload])
        // A new document unloads the old one if nobody did, then starts over.
        #expect(run([.documentStarted, .bridgeReady, .loadFinished, .documentStarted, .bridgeReady, .loadFinished])
                == [.ready, .show, .unload, .ready, .show])
        #expect(run([.documentStarted, .documentEnding, .documentStarted, .bridgeReady]) == [.unload, .ready])
        #expect(run([.documentEnding]) == [])
    }

    @Test func crashRecoveryIsCappedWithBackoff() {
        let policy = CrashRecoveryPolicy(maxReloads: 3, window: .seconds(60), backoff: [.zero, .seconds(1), .seconds(2)])
        let now = ContinuousClock.now
        #expect(policy.decide(earlierCrashes: [], now: now) == .reload(after: .zero))
        #expect(policy.decide(earlierCrashes: [now - .seconds(5)], now: now) == .reload(after: .seconds(1)))
        #expect(policy.decide(earlierCrashes: [now - .seconds(9), now - .seconds(5)], now: now) == .reload(after: .seconds(2)))
        #expect(policy.decide(earlierCrashes: [now - .seconds(9), now - .seconds(5), now - .seconds(1)], now: now) == .giveUp(crashes: 4))
        // Crashes outside the window are forgotten.
        #expect(policy.decide(earlierCrashes: [now - .seconds(70), now - .seconds(65), now - .seconds(61)], now: now) == .reload(after: .zero))
        #expect(CrashRecoveryPolicy(maxReloads: 0).decide(earlierCrashes: [], now: now) == .giveUp(crashes: 1))
    }
}
