package import CGLib

/// Glue for WebKit's `GAsyncReadyCallback` functions: the callback gets a retained box holding
/// what to do with the `GAsyncResult`, runs it on the loop thread and releases the box.
package final class AsyncCallCompletion {
    let finish: @EngineActor (gpointer?, OpaquePointer?) -> Void

    package init(_ finish: @escaping @EngineActor (gpointer?, OpaquePointer?) -> Void) {
        self.finish = finish
    }

    /// The user data to pass with ``asyncCallReady``; retained until the callback runs.
    package func retainedUserData() -> gpointer {
        Unmanaged.passRetained(self).toOpaque()
    }
}

package let asyncCallReady: GAsyncReadyCallback = { source, result, data in
    nonisolated(unsafe) let completion = Unmanaged<AsyncCallCompletion>.fromOpaque(data!).takeRetainedValue()
    nonisolated(unsafe) let (source, result) = (source, result)
    GLibExecutor.shared.runCallback {
        EngineActor.assumeIsolated { completion.finish(UnsafeMutableRawPointer(source), result) }
    }
}

/// A `GCancellable` that a Swift task's cancellation handler (any thread) may cancel while the loop
/// thread finishes the call; the reference keeps it alive for both.
package struct TaskCancellable: Sendable {
    package init() {}

    let reference = GObjectReference(taking: UnsafeMutableRawPointer(g_cancellable_new()))

    package var pointer: UnsafeMutablePointer<GCancellable> { reference.pointer(as: GCancellable.self) }

    /// `g_cancellable_cancel` runs the cancellable's `cancelled` handlers — WebKit's — in the
    /// calling thread, so the cancel itself is sent to the loop thread.
    package func cancel() {
        let reference = self.reference
        Task { @EngineActor in g_cancellable_cancel(reference.pointer(as: GCancellable.self)) }
    }
}

/// Moves a C `GError` into a Swift value and frees it.
package struct GLibError: Sendable {
    package let domain: String
    package let code: Int
    package let message: String

    package init(consuming error: UnsafeMutablePointer<GError>) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = Int(error.pointee.code)
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        g_error_free(error)
    }

    package init(borrowing error: UnsafeMutablePointer<GError>) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = Int(error.pointee.code)
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    package var isCancellation: Bool {
        domain == String(cString: g_quark_to_string(hsg_io_error())) && code == Int(G_IO_ERROR_CANCELLED.rawValue)
    }
}

/// Takes a newly allocated C string (`gchar*` a function returns with transfer full).
package func takeGLibString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// Reads a C string owned by someone else (transfer none).
package func borrowCString(_ pointer: UnsafePointer<gchar>?) -> String? {
    pointer.map { String(cString: $0) }
}
