internal import CWebKitGTK
import Glibc
import HybridShellCore

extension WebKitView {
    /// `webkit_web_view_get_snapshot` of the visible region, written with `cairo_surface_write_to_png_stream`
    /// (see ``writePNG(_:to:)``). Settles with an error when WebKit cannot produce one (the view closed, its web process died).
    func snapshotPNG(to path: String) async throws(ShellError) {
        try await snapshot { surface -> Result<Void, ShellError> in
            Result { () throws(ShellError) in try writePNG(surface, to: path) }
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

/// Writes `surface` as a PNG at `path` without following anything planted there: the bytes go to
/// a new file (`mkstemp`: `O_CREAT|O_EXCL`, so never through a symbolic link) next to `path`, which
/// is then renamed over `path`. A symbolic link at `path` is replaced, not written through, and a
/// reader never sees half a PNG.
private func writePNG(_ surface: OpaquePointer, to path: String) throws(ShellError) {
    let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
    let name = path.split(separator: "/").last.map(String.init) ?? path
    var template = Array(((directory.isEmpty ? "" : directory) + "/." + name + ".XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
        throw .invalidArgument("cannot write the screenshot \(path): \(String(cString: strerror(errno)))")
    }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var closed = false
    defer {
        if !closed { close(descriptor) }
    }
    // cairo's closure is the descriptor (plus one: 0 would be a null pointer).
    let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
        let descriptor = Int32(Int(bitPattern: closure) - 1)
        var offset = 0
        while offset < Int(length) {
            let written = write(descriptor, data! + offset, Int(length) - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return CAIRO_STATUS_WRITE_ERROR }
            offset += written
        }
        return CAIRO_STATUS_SUCCESS
    }, UnsafeMutableRawPointer(bitPattern: Int(descriptor) + 1))
    // mkstemp makes it 0600; cairo's fopen made it 0644 under the usual umask.
    fchmod(descriptor, 0o644)
    closed = true
    let closeFailed = close(descriptor) != 0
    guard status == CAIRO_STATUS_SUCCESS, !closeFailed else {
        unlink(temporary)
        let reason = status == CAIRO_STATUS_SUCCESS ? String(cString: strerror(errno)) : String(cString: cairo_status_to_string(status))
        throw .invalidArgument("cannot write the screenshot \(path): \(reason)")
    }
    guard rename(temporary, path) == 0 else {
        let reason = String(cString: strerror(errno))
        unlink(temporary)
        throw .invalidArgument("cannot write the screenshot \(path): \(reason)")
    }
}
