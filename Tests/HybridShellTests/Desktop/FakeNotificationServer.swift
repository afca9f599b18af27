import Foundation
import HybridShell
import Synchronization

/// Tests/fake-notifications.py while a test body runs: a private D-Bus with a fake
/// `org.freedesktop.Notifications` on it, ended (with its bus) when the body returns.
struct FakeNotificationServer: Sendable {
    let address: String
    /// The Notify calls it received, in order.
    let notifications: AsyncStream<JSONValue>

    /// The first Notify call.
    func firstNotification() async -> JSONValue? {
        var calls = notifications.makeAsyncIterator()
        return await calls.next()
    }

    static func run(click: String? = nil, _ body: @escaping @EngineActor @Sendable (FakeNotificationServer) async throws -> Void) async throws {
        let script = Fixtures.repository.appendingPathComponent("Tests/fake-notifications.py").path
        let failure = Mutex<String?>(nil)
        let run = try await CommandLineRun.run([script] + (click.map { ["--click", $0] } ?? []), executable: "/usr/bin/python3",
                                               deadline: .seconds(120)) { running in
            defer { kill(running.pid, SIGTERM) }
            let addresses = AsyncStream<String>.makeStream()
            let calls = AsyncStream<JSONValue>.makeStream()
            let forward = Task {
                for await line in running.lines {
                    guard let object = try? JSONValue(parsing: line) else { continue }
                    if let address = object["address"]?.stringValue { addresses.continuation.yield(address) }
                    if let call = object["notify"] { calls.continuation.yield(call) }
                }
                addresses.continuation.finish()
                calls.continuation.finish()
            }
            var started = addresses.stream.makeAsyncIterator()
            guard let address = await started.next() else {
                failure.withLock { $0 = "the fake notification server did not start" }
                return
            }
            defer { forward.cancel() }
            do {
                try await body(FakeNotificationServer(address: address, notifications: calls.stream))
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        if let problem = failure.withLock({ $0 }) { throw ShellError.invalidArgument("\(problem) (server: \(run.stderr))") }
    }
}
