package import CGLib

/// A Swift closure handed to GLib as a signal's user data. GLib owns it: the box is retained once
/// when connected and released by the destroy notify when the handler is disconnected or the
/// object is finalised.
package class SignalClosure {}

package final class TypedSignalClosure<Body>: SignalClosure {
    let body: Body
    init(_ body: Body) { self.body = body }

    package static func from(_ data: gpointer?) -> Body {
        Unmanaged<TypedSignalClosure<Body>>.fromOpaque(data!).takeUnretainedValue().body
    }
}

private let releaseSignalClosure: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<SignalClosure>.fromOpaque(data).release()
}

/// A connected signal handler. ``disconnect()`` is idempotent; an object's handlers also go away
/// when the object is finalised.
package struct SignalConnection {
    let instance: gpointer
    let id: gulong

    @EngineActor
    package func disconnect() {
        if g_signal_handler_is_connected(instance, id) != 0 {
            g_signal_handler_disconnect(instance, id)
        }
    }
}

/// Connects `body` to `signal` of `instance` through `trampoline`, a C function whose signature
/// matches the signal and which reads the closure back with `TypedSignalClosure<Body>.from`.
/// One trampoline serves every signal with the same C signature.
@EngineActor
package func connectSignal<Body>(
    _ instance: gpointer, _ signal: String, _ trampoline: GCallback, _ body: Body
) -> SignalConnection {
    let box = Unmanaged.passRetained(TypedSignalClosure(body) as SignalClosure).toOpaque()
    let id = g_signal_connect_data(instance, signal, trampoline, box, releaseSignalClosure, GConnectFlags(rawValue: 0))
    precondition(id != 0, "HybridShell: no signal named \(signal)")
    return SignalConnection(instance: instance, id: id)
}

/// Carries a C pointer out of an isolated closure; only the loop thread touches it.
package struct UncheckedOptionalPointer: @unchecked Sendable {
    package let raw: gpointer?
    package init(_ raw: gpointer?) { self.raw = raw }
}

// MARK: Trampolines, one per C signature. Each runs on the loop thread inside a signal emission.

/// `void (*)(GObject*, gpointer)`
package typealias VoidSignal = @EngineActor () -> Void
package let voidSignalTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    let body = TypedSignalClosure<VoidSignal>.from(data)
    EngineActor.assumeIsolated { body() }
}

/// `void (*)(GObject*, <enum>, gpointer)`
package typealias EnumSignal = @EngineActor (UInt32) -> Void
package let enumSignalTrampoline: @convention(c) (gpointer?, UInt32, gpointer?) -> Void = { _, value, data in
    let body = TypedSignalClosure<EnumSignal>.from(data)
    EngineActor.assumeIsolated { body(value) }
}

/// `void (*)(GObject*, gpointer arg, gpointer)` — `notify::*`, `script-message-received`.
package typealias PointerSignal = @EngineActor (gpointer?) -> Void
package let pointerSignalTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
    let body = TypedSignalClosure<PointerSignal>.from(data)
    nonisolated(unsafe) let argument = argument
    EngineActor.assumeIsolated { body(argument) }
}

/// `gboolean (*)(GObject*, gpointer arg, gpointer)` — `script-dialog`.
package typealias PointerPredicateSignal = @EngineActor (gpointer?) -> Bool
package let pointerPredicateSignalTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, argument, data in
    let body = TypedSignalClosure<PointerPredicateSignal>.from(data)
    nonisolated(unsafe) let argument = argument
    return EngineActor.assumeIsolated { body(argument) } ? 1 : 0
}

/// `gboolean (*)(GObject*, gpointer, gpointer, gpointer)` — `script-message-with-reply-received`.
package typealias TwoPointerPredicateSignal = @EngineActor (gpointer?, gpointer?) -> Bool
package let twoPointerPredicateSignalTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> gboolean = {
    _, first, second, data in
    let body = TypedSignalClosure<TwoPointerPredicateSignal>.from(data)
    nonisolated(unsafe) let (first, second) = (first, second)
    return EngineActor.assumeIsolated { body(first, second) } ? 1 : 0
}

/// `gboolean (*)(GObject*, gpointer, gpointer, gpointer, gpointer)` — `context-menu`.
package typealias ThreePointerPredicateSignal = @EngineActor (gpointer?, gpointer?, gpointer?) -> Bool
package let threePointerPredicateSignalTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?, gpointer?) -> gboolean = {
    _, first, second, third, data in
    let body = TypedSignalClosure<ThreePointerPredicateSignal>.from(data)
    nonisolated(unsafe) let (first, second, third) = (first, second, third)
    return EngineActor.assumeIsolated { body(first, second, third) } ? 1 : 0
}

/// `gboolean (*)(GObject*, gpointer, <enum>, gpointer)` — `decide-policy`.
package typealias PointerEnumPredicateSignal = @EngineActor (gpointer?, UInt32) -> Bool
package let pointerEnumPredicateSignalTrampoline: @convention(c) (gpointer?, gpointer?, UInt32, gpointer?) -> gboolean = {
    _, pointer, value, data in
    let body = TypedSignalClosure<PointerEnumPredicateSignal>.from(data)
    nonisolated(unsafe) let pointer = pointer
    return EngineActor.assumeIsolated { body(pointer, value) } ? 1 : 0
}

/// `gboolean (*)(GObject*, <enum>, gchar*, GError*, gpointer)` — `load-failed`.
package typealias LoadFailedSignal = @EngineActor (UInt32, UnsafeMutablePointer<gchar>?, UnsafeMutablePointer<GError>?) -> Bool
package let loadFailedSignalTrampoline: @convention(c) (
    gpointer?, UInt32, UnsafeMutablePointer<gchar>?, UnsafeMutablePointer<GError>?, gpointer?
) -> gboolean = { _, event, uri, error, data in
    let body = TypedSignalClosure<LoadFailedSignal>.from(data)
    nonisolated(unsafe) let (uri, error) = (uri, error)
    return EngineActor.assumeIsolated { body(event, uri, error) } ? 1 : 0
}

/// `gboolean (*)(GObject*, gchar*, GTlsCertificate*, GTlsCertificateFlags, gpointer)` — `load-failed-with-tls-errors`.
package typealias TLSFailedSignal = @EngineActor (UnsafeMutablePointer<gchar>?, UInt32) -> Bool
package let tlsFailedSignalTrampoline: @convention(c) (
    gpointer?, UnsafeMutablePointer<gchar>?, gpointer?, UInt32, gpointer?
) -> gboolean = { _, uri, _, flags, data in
    let body = TypedSignalClosure<TLSFailedSignal>.from(data)
    nonisolated(unsafe) let uri = uri
    return EngineActor.assumeIsolated { body(uri, flags) } ? 1 : 0
}

/// `GtkWidget* (*)(GObject*, gpointer arg, gpointer)` — `create`.
package typealias PointerFactorySignal = @EngineActor (gpointer?) -> gpointer?
package let pointerFactorySignalTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gpointer? = { _, argument, data in
    let body = TypedSignalClosure<PointerFactorySignal>.from(data)
    nonisolated(unsafe) let argument = argument
    let created = EngineActor.assumeIsolated { UncheckedOptionalPointer(body(argument)) }
    return created.raw
}

/// Casts a trampoline to the `GCallback` that `g_signal_connect_data` takes.
package func signalCallback<F>(_ trampoline: F) -> GCallback {
    unsafeBitCast(trampoline, to: GCallback.self)
}
