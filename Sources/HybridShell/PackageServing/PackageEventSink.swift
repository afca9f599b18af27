import HybridShellCore
import Synchronization
import HybridShellWebKit

/// Forwards a package store's events to whoever prints or handles them (set once a run starts:
/// the store exists, and may already report, before its consumer does).
public final class PackageEventSink: Sendable {
    private let target = Mutex<(@Sendable (PackageEvent) -> Void)?>(nil)
    private let listeners = Mutex<[@Sendable (PackageEvent) -> Void]>([])

    public init() {}

    /// Sends every later event to `body` (replacing an earlier receiver).
    public func forward(to body: @escaping @Sendable (PackageEvent) -> Void) { target.withLock { $0 = body } }

    /// Also sends every later event to `body`, besides the receiver of ``forward(to:)`` (the update
    /// manager for pages listens this way).
    public func listen(_ body: @escaping @Sendable (PackageEvent) -> Void) { listeners.withLock { $0.append(body) } }

    public func send(_ event: PackageEvent) {
        target.withLock { $0 }?(event)
        for listener in listeners.withLock({ $0 }) { listener(event) }
    }
}
