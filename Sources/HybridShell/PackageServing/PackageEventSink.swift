import HybridShellCore
import Synchronization
import HybridShellWebKit

/// Forwards a package store's events to whoever prints or handles them (set once a run starts:
/// the store exists, and may already report, before its consumer does).
public final class PackageEventSink: Sendable {
    private let target = Mutex<(@Sendable (PackageEvent) -> Void)?>(nil)

    public init() {}

    /// Sends every later event to `body` (replacing an earlier receiver).
    public func forward(to body: @escaping @Sendable (PackageEvent) -> Void) { target.withLock { $0 = body } }

    public func send(_ event: PackageEvent) { target.withLock { $0 }?(event) }
}
