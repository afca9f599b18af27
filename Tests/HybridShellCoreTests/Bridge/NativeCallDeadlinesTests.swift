import Testing
@testable import HybridShellCore

/// The one shared deadline timer of native → page calls: each call still times out at its own
/// deadline, in any order of arrival, and a call that settled first is never failed.
@Suite(.timeLimit(.minutes(1)))
@EngineActor
struct NativeCallDeadlinesTests {
    private func outcome(_ waiter: NativeCallWaiter) async -> Result<RawJSON, BridgeError> {
        do { return .success(try await waiter.wait()) } catch { return .failure(error) }
    }

    @Test func anEarlierDeadlineAddedLaterFiresFirst() async throws {
        let long = NativeCallWaiter(onProgress: nil)
        long.expire(after: .seconds(20)) { BridgeError(.timeout, "long") }
        let short = NativeCallWaiter(onProgress: nil)
        let started = ContinuousClock.now
        short.expire(after: .milliseconds(100)) { BridgeError(.timeout, "short") }
        let result = await outcome(short)
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        #expect(ContinuousClock.now - started < .seconds(10))
        guard case .failure(let error) = result else { Issue.record("expected TIMEOUT, got \(result)"); return }
        #expect(error.code == .timeout)
        #expect(error.message == "short")
        #expect(!long.hasOutcome)
        long.settle(.success(RawJSON(unchecked: "1")))
        #expect(try await long.wait().text == "1")
    }

    @Test func aSettledCallIsNeverFailedByItsDeadline() async throws {
        let answered = NativeCallWaiter(onProgress: nil)
        answered.expire(after: .milliseconds(20)) { BridgeError(.timeout, "answered") }
        answered.settle(.success(RawJSON(unchecked: "2")))
        // A later deadline: once it has fired, the earlier one has had its turn too.
        let later = NativeCallWaiter(onProgress: nil)
        later.expire(after: .milliseconds(150)) { BridgeError(.timeout, "later") }
        guard case .failure(let error) = await outcome(later) else { Issue.record("expected TIMEOUT"); return }
        #expect(error.message == "later")
        #expect(try await answered.wait().text == "2")
    }

    /// A waiter hands over one outcome, once: the first settlement wins, an outcome that came
    /// before the wait is returned at once, and a second wait is an error rather than a hang.
    @Test func aWaiterHandsOverItsFirstOutcomeOnce() async throws {
        let early = NativeCallWaiter(onProgress: nil)
        early.settle(.success(RawJSON(unchecked: "1")))
        early.settle(.failure(BridgeError(.timeout, "too late")))
        #expect(try await early.wait().text == "1")
        guard case .failure(let error) = await outcome(early) else { Issue.record("a second wait got a value"); return }
        #expect(error.code == .bridgeReset)

        let late = NativeCallWaiter(onProgress: nil)
        // Whether the wait begins before or after the settlements, the first one is the outcome.
        async let waited = outcome(late)
        late.settle(.failure(BridgeError(.handlerError, "first")))
        late.settle(.success(RawJSON(unchecked: "2")))
        guard case .failure(let first) = await waited else { Issue.record("the later settlement won"); return }
        #expect(first.message == "first")
    }
}
