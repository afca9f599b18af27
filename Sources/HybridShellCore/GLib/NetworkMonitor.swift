internal import CGLib

/// GLib's network status (`GNetworkMonitor`): whether a network is available, how much of it,
/// and a callback on each change (`network-changed`). Used by the `system` module.
@EngineActor
package final class NetworkMonitor {
    package enum Connectivity: String, Sendable {
        case none, local, limited, portal, full
    }

    private let monitor: gpointer
    private var connection: SignalConnection?

    package init() {
        // The default monitor is a process-wide singleton GLib keeps alive (transfer none).
        monitor = UnsafeMutableRawPointer(g_network_monitor_get_default()!)
    }

    var isAvailable: Bool {
        g_network_monitor_get_network_available(OpaquePointer(monitor)) != 0
    }

    package var connectivity: Connectivity {
        guard isAvailable else { return .none }
        switch g_network_monitor_get_connectivity(OpaquePointer(monitor)) {
        case G_NETWORK_CONNECTIVITY_LOCAL: return .local
        case G_NETWORK_CONNECTIVITY_LIMITED: return .limited
        case G_NETWORK_CONNECTIVITY_PORTAL: return .portal
        default: return .full
        }
    }

    /// Calls `body` with the new availability on every `network-changed`; replaces an earlier one.
    package func onChange(_ body: @escaping @EngineActor (Bool) -> Void) {
        connection?.disconnect()
        // network-changed is `void (GNetworkMonitor*, gboolean available, gpointer)`.
        let signal: EnumSignal = { available in body(available != 0) }
        connection = connectSignal(monitor, "network-changed", unsafeBitCast(enumSignalTrampoline, to: GCallback.self), signal)
    }

    package func stop() {
        connection?.disconnect()
        connection = nil
    }
}
