internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    /// `webkit_web_view_get_snapshot` of the visible region, written with `cairo_surface_write_to_png`.
    /// Settles with an error when WebKit cannot produce one (the view closed, its web process died).
    func snapshotPNG(to path: String) async throws(ShellError) {
        guard !isClosed else { throw .viewClosed }
        let view = self.view
        let result: Result<Void, ShellError> = await withCheckedContinuation { continuation in
            let completion = AsyncCallCompletion { _, asyncResult in
                var error: UnsafeMutablePointer<GError>?
                guard let surface = webkit_web_view_get_snapshot_finish(view, asyncResult, &error) else {
                    let failure = error.map { GLibError(consuming: $0) }
                    continuation.resume(returning: .failure(.engine(domain: failure?.domain ?? "WebKitSnapshotError", code: failure?.code ?? 0,
                                                                    message: "no snapshot: \(failure?.message ?? "unknown error")")))
                    return
                }
                defer { cairo_surface_destroy(surface) }
                let status = cairo_surface_write_to_png(surface, path)
                if status == CAIRO_STATUS_SUCCESS {
                    continuation.resume(returning: .success(()))
                } else {
                    let reason = String(cString: cairo_status_to_string(status))
                    continuation.resume(returning: .failure(.invalidArgument("cannot write the screenshot \(path): \(reason)")))
                }
            }
            webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil,
                                         asyncCallReady, completion.retainedUserData())
        }
        try result.get()
    }
}
