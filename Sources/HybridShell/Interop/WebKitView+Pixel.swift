internal import CWebKitGTK

extension WebKitView {
    /// The colour (0xRRGGBB) of one pixel of `webkit_web_view_get_snapshot`'s visible region, read
    /// through `cairo_surface_map_to_image` (the snapshot need not be an image surface).
    func snapshotPixel(x: Int, y: Int) async throws(ShellError) -> UInt32 {
        guard !isClosed else { throw .viewClosed }
        let view = self.view
        let result: Result<UInt32, ShellError> = await withCheckedContinuation { continuation in
            let completion = AsyncCallCompletion { _, asyncResult in
                var error: UnsafeMutablePointer<GError>?
                guard let surface = webkit_web_view_get_snapshot_finish(view, asyncResult, &error) else {
                    let failure = error.map { GLibError(consuming: $0) }
                    continuation.resume(returning: .failure(.engine(domain: failure?.domain ?? "WebKitSnapshotError", code: failure?.code ?? 0,
                                                                    message: "no snapshot: \(failure?.message ?? "unknown error")")))
                    return
                }
                defer { cairo_surface_destroy(surface) }
                guard let image = cairo_surface_map_to_image(surface, nil) else {
                    return continuation.resume(returning: .failure(.invalidArgument("the snapshot cannot be read")))
                }
                defer { cairo_surface_unmap_image(surface, image) }
                let width = Int(cairo_image_surface_get_width(image)), height = Int(cairo_image_surface_get_height(image))
                guard cairo_image_surface_get_format(image) == CAIRO_FORMAT_ARGB32 || cairo_image_surface_get_format(image) == CAIRO_FORMAT_RGB24,
                      let data = cairo_image_surface_get_data(image), x >= 0, y >= 0, x < width, y < height else {
                    return continuation.resume(returning: .failure(.invalidArgument("no pixel (\(x), \(y)) in a \(width)x\(height) snapshot")))
                }
                // Both formats are native-endian 32-bit words with red, green, blue in the low 24 bits.
                let row = data.advanced(by: y * Int(cairo_image_surface_get_stride(image)))
                let word = UnsafeRawPointer(row).load(fromByteOffset: x * 4, as: UInt32.self)
                continuation.resume(returning: .success(word & 0xFF_FFFF))
            }
            webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil,
                                         asyncCallReady, completion.retainedUserData())
        }
        return try result.get()
    }
}
