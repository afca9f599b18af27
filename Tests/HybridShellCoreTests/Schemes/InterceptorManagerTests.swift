import Foundation
@testable import HybridShellCore
import Testing

/// An interceptor for paths with a prefix, answering with its name.
private struct Prefix: URLInterceptor {
    let prefix: String
    let name: String
    func canHandle(_ request: SchemeRequest) -> Bool { request.path.hasPrefix(prefix) }
    func response(for request: SchemeRequest) async throws -> SchemeResponse { .ok(Data(name.utf8), contentType: "text/plain") }
}

/// Never answers until cancelled; reports the cancellation.
private struct Hanging: URLInterceptor {
    let started: @Sendable () -> Void
    let cancelled: @Sendable () -> Void
    func canHandle(_ request: SchemeRequest) -> Bool { true }
    func response(for request: SchemeRequest) async throws -> SchemeResponse {
        started()
        do { try await Task.sleep(for: .seconds(3600)) } catch { cancelled(); throw error }
        return .error(500, "unreachable")
    }
}

@Suite("InterceptorManager: priority, reference counting, cancellation (pure)")
struct InterceptorManagerTests {
    private func answer(_ manager: InterceptorManager, _ path: String, page: SchemePage? = nil) async throws -> (Int, String) {
        let response = try await manager.response(for: SchemeRequest(url: "app://" + path, page: page))
        guard case .bytes(let data) = response.body else { return (response.status, "") }
        return (response.status, String(decoding: data, as: UTF8.self))
    }

    @Test func firstCanHandleInPriorityOrderWins() async throws {
        let manager = InterceptorManager()
        manager.add(Prefix(prefix: "/", name: "catch-all"), priority: 0)
        manager.add(Prefix(prefix: "/api", name: "api"), priority: 10)
        manager.add(Prefix(prefix: "/api", name: "api-later"), priority: 10)
        manager.retain()
        #expect(try await answer(manager, "/api/x") == (200, "api"))
        #expect(try await answer(manager, "/other") == (200, "catch-all"))
    }

    @Test func groupsInterceptOnlyWhileRetained() async throws {
        let manager = InterceptorManager(fallback: SchemeHandlerClosure { _ in .ok(Data("fallback".utf8), contentType: "text/plain") })
        manager.add(Prefix(prefix: "/", name: "offline"), group: "offline")
        #expect(try await answer(manager, "/a") == (200, "fallback"))
        #expect(manager.retain("offline") == 1)
        #expect(manager.retain("offline") == 2)
        #expect(try await answer(manager, "/a") == (200, "offline"))
        #expect(manager.release("offline") == 1)
        // The nested user released; the outer one still intercepts.
        #expect(try await answer(manager, "/a") == (200, "offline"))
        #expect(manager.release("offline") == 0)
        #expect(!manager.isActive("offline"))
        #expect(try await answer(manager, "/a") == (200, "fallback"))
        #expect(manager.release("offline") == nil)
        #expect(manager.retain("offline") == 1)
    }

    @Test func nothingActiveIs404() async throws {
        let manager = InterceptorManager()
        manager.add(Prefix(prefix: "/", name: "x"))
        #expect(try await answer(manager, "/a").0 == 404)
    }

    @Test func aPageGoingAwayCancelsItsRequests() async throws {
        let manager = InterceptorManager()
        let (startedStream, startedContinuation) = AsyncStream<Void>.makeStream()
        let (cancelledStream, cancelledContinuation) = AsyncStream<Void>.makeStream()
        manager.add(Hanging(started: { startedContinuation.yield() }, cancelled: { cancelledContinuation.yield() }))
        manager.retain()
        let page = SchemePage(id: 42, url: "app:///index.html")
        let other = SchemePage(id: 43, url: "app:///index.html")
        let request = Task { try await manager.response(for: SchemeRequest(url: "app:///slow", page: page)) }
        var started = startedStream.makeAsyncIterator()
        _ = await started.next()
        #expect(manager.runningCount == 1)
        manager.pageWentAway(other)
        #expect(manager.runningCount == 1)
        manager.pageWentAway(page)
        var cancelled = cancelledStream.makeAsyncIterator()
        _ = await cancelled.next()
        await #expect(throws: CancellationError.self) { _ = try await request.value }
        #expect(manager.runningCount == 0)
    }
}
