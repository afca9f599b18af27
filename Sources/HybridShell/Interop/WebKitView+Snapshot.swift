internal import CWebKitGTK

extension WebKitView {
    /// `webkit_web_view_get_snapshot` of the visible region, written with `cairo_surface_write_to_png`.
    /// Settles with an error when WebKit cannot produce one (the view closed, its web process died).
    func snapshotPNG(to path: String) async throws(ShellError) {
        try await snapshot { surface -> Result<Void, ShellError> in
            let status = cairo_surface_write_to_png(surface, path)
            guard status == CAIRO_STATUS_SUCCESS else {
                return .failure(.invalidArgument("cannot write the screenshot \(path): \(String(cString: cairo_status_to_string(status)))"))
            }
            return .success(())
        }
    }

    /// A `webkit_web_view_get_snapshot` of the visible region, handed to `read` (on the loop) and
    /// destroyed after it.
    func snapshot<T: Sendable>(_ read: @escaping @EngineActor (OpaquePointer) -> Result<T, ShellError>) async throws(ShellError) -> T {
        guard !isClosed else { throw .viewClosed }
        let view = self.view
        let result: Result<T, ShellError> = await withCheckedContinuation { continuation in
            let completion = AsyncCallCompletion { _, asyncResult in
                var error: UnsafeMutablePointer<GError>?
                guard let surface = webkit_web_view_get_snapshot_finish(view, asyncResult, &error) else {
                    let failure = error.map { GLibError(consuming: $0) }
                    continuation.resume(returning: .failure(.engine(domain: failure?.domain ?? "WebKitSnapshotError", code: failure?.code ?? 0,
                                                                    message: "no snapshot: \(failure?.message ?? "unknown error")")))
                    return
                }
                defer { cairo_surface_destroy(surface) }
                continuation.resume(returning: read(surface))
            }
            webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil,
                                         asyncCallReady, completion.retainedUserData())
        }
        return try result.get()
    }
}
