internal import CGLib

/// A client of the desktop's notification server (`org.freedesktop.Notifications` on the D-Bus
/// session bus, through GDBus): shows notifications (`Notify`) and reports the clicks on their
/// actions (`ActionInvoked`) and their closing (`NotificationClosed`) — only for the notifications
/// this client showed, since the server's signals are broadcast to every client.
@EngineActor
package final class DesktopNotifications {
    /// What the server said about one of our notifications.
    package enum Event: Sendable, Equatable {
        case action(id: UInt32, action: String)
        /// `reason`: 1 expired, 2 dismissed by the user, 3 closed by a call, 4 undefined.
        case closed(id: UInt32, reason: UInt32)
    }

    static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    private let address: String?
    private var connection: OpaquePointer?
    private var subscription: guint = 0
    private var shown: Set<UInt32> = []
    /// Called on the loop thread for each event about a notification this client showed.
    package var onEvent: @EngineActor (Event) -> Void = { _ in }

    /// `address`: a D-Bus address (a private bus in tests); nil is the session bus
    /// (`DBUS_SESSION_BUS_ADDRESS`). Nothing connects before the first ``show(appName:title:body:icon:actions:)``.
    package init(address: String? = nil) {
        self.address = address
    }

    /// Shows a notification; its id (`Notify`'s answer). `actions`: (key, label) pairs.
    package func show(appName: String, title: String, body: String, icon: String, actions: [(id: String, label: String)]) async throws(ShellError) -> UInt32 {
        let connection = try connect()
        let texts: [String] = actions.flatMap { [$0.id, $0.label] }
        var strings: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        let dictionary = g_variant_type_new("{sv}")
        defer { g_variant_type_free(dictionary) }
        var children: [OpaquePointer?] = [
            g_variant_new_string(appName), g_variant_new_uint32(0), g_variant_new_string(icon), g_variant_new_string(title),
            g_variant_new_string(body),
            strings.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) { g_variant_new_strv($0, gssize(buffer.count)) }
            },
            g_variant_new_array(dictionary, nil, 0), g_variant_new_int32(-1),
        ]
        let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        let replyType = g_variant_type_new("(u)")
        defer { g_variant_type_free(replyType) }
        let reply: Result<UInt32, ShellError> = await withCheckedContinuation { continuation in
            let completion = AsyncCallCompletion { source, result in
                var error: UnsafeMutablePointer<GError>?
                guard let value = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
                    let failure = error.map { GLibError(consuming: $0) }
                    continuation.resume(returning: .failure(.engine(domain: failure?.domain ?? "g-dbus-error-quark", code: failure?.code ?? 0,
                                                                    message: "the notification server did not show it: \(failure?.message ?? "no answer")")))
                    return
                }
                defer { g_variant_unref(value) }
                let id = g_variant_get_child_value(value, 0)
                defer { g_variant_unref(id) }
                // Known before anything else runs on the loop: the server may send ActionInvoked
                // right behind its reply, before the awaiting task resumes.
                self.shown.insert(g_variant_get_uint32(id))
                continuation.resume(returning: .success(g_variant_get_uint32(id)))
            }
            g_dbus_connection_call(connection, Self.service, Self.path, Self.service, "Notify", parameters, replyType,
                                   G_DBUS_CALL_FLAGS_NONE, 10_000, nil, asyncCallReady, completion.retainedUserData())
        }
        return try reply.get()
    }

    /// Stops listening; the connection closes when the client goes away.
    package func stop() {
        if let connection, subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        subscription = 0
    }

    private func connect() throws(ShellError) -> OpaquePointer {
        if let connection { return connection }
        var error: UnsafeMutablePointer<GError>?
        // A local socket handshake: quick enough to make on the loop thread, once.
        let made: OpaquePointer?
        if let address {
            let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                             | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
            made = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error)
        } else {
            made = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        }
        guard let made else {
            let failure = error.map { GLibError(consuming: $0) }
            throw .engine(domain: failure?.domain ?? "g-io-error-quark", code: failure?.code ?? 0,
                          message: "no D-Bus session bus for notifications: \(failure?.message ?? "unknown error")")
        }
        connection = made
        let box = Unmanaged.passRetained(SignalBox(self)).toOpaque()
        subscription = g_dbus_connection_signal_subscribe(made, nil, Self.service, nil, Self.path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
                                                          notificationSignal, box, releaseSignalBox)
        return made
    }

    fileprivate func received(_ signal: String, _ parameters: OpaquePointer) {
        func child(_ index: gsize) -> OpaquePointer { g_variant_get_child_value(parameters, index) }
        let first = child(0)
        defer { g_variant_unref(first) }
        guard g_variant_classify(first) == G_VARIANT_CLASS_UINT32 else { return }
        let id = g_variant_get_uint32(first)
        guard shown.contains(id), g_variant_n_children(parameters) == 2 else { return }
        let second = child(1)
        defer { g_variant_unref(second) }
        switch signal {
        case "ActionInvoked" where g_variant_classify(second) == G_VARIANT_CLASS_STRING:
            onEvent(.action(id: id, action: String(cString: g_variant_get_string(second, nil))))
        case "NotificationClosed" where g_variant_classify(second) == G_VARIANT_CLASS_UINT32:
            shown.remove(id)
            onEvent(.closed(id: id, reason: g_variant_get_uint32(second)))
        default:
            break
        }
    }

    isolated deinit {
        stop()
        if let connection { g_object_unref(UnsafeMutableRawPointer(connection)) }
    }
}

/// The client, weakly, as a signal subscription's user data (GLib owns the box).
private final class SignalBox {
    weak var client: DesktopNotifications?
    init(_ client: DesktopNotifications) { self.client = client }
}

private let releaseSignalBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<SignalBox>.fromOpaque(data).release()
}

/// `GDBusSignalCallback`: runs on the loop thread (the subscription's context is the default one).
private let notificationSignal: GDBusSignalCallback = { _, _, _, _, signal, parameters, data in
    guard let data, let signal, let parameters else { return }
    let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
    let name = String(cString: signal)
    nonisolated(unsafe) let (box2, parameters2) = (box, parameters)
    EngineActor.assumeIsolated { box2.client?.received(name, parameters2) }
}
