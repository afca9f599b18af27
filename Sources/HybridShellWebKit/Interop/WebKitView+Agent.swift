internal import CWebKitGTK
import HybridShellCore

/// What `hybrid-run mcp` needs of the view beyond the rest: history state, typed characters as
/// key values, and a screenshot as PNG bytes, whole or clipped to an element.
extension WebKitView {
    var canGoBack: Bool { webkit_web_view_can_go_back(view) != 0 }
    var canGoForward: Bool { webkit_web_view_can_go_forward(view) != 0 }

    /// The key value a keyboard sends for `scalar` (`gdk_unicode_to_keyval`); line breaks and tabs
    /// are the Return and Tab keys, not characters.
    static func keyval(typing scalar: Unicode.Scalar) -> guint {
        switch scalar {
        case "\n", "\r": return guint(GDK_KEY_Return)
        case "\t": return guint(GDK_KEY_Tab)
        default: return gdk_unicode_to_keyval(scalar.value)
        }
    }

    /// A `webkit_web_view_get_snapshot` of the visible region as PNG bytes
    /// (`cairo_surface_write_to_png_stream`), clipped to `clip` (view pixels) when given
    /// (`cairo_surface_create_for_rectangle`).
    func snapshotPNGBytes(clip: (x: Double, y: Double, width: Double, height: Double)?) async throws(ShellError) -> [UInt8] {
        try await snapshot { surface -> Result<[UInt8], ShellError> in
            var source = surface
            var sub: OpaquePointer?
            if let clip {
                let width = Double(cairo_image_surface_get_width(surface)), height = Double(cairo_image_surface_get_height(surface))
                let x = max(0, min(clip.x, width - 1)), y = max(0, min(clip.y, height - 1))
                let w = max(1, min(clip.width, width - x)), h = max(1, min(clip.height, height - y))
                sub = cairo_surface_create_for_rectangle(surface, x, y, w, h)
                source = sub!
            }
            defer { if let sub { cairo_surface_destroy(sub) } }
            let sink = PNGSink()
            let status = cairo_surface_write_to_png_stream(source, { closure, data, length in
                let sink = Unmanaged<PNGSink>.fromOpaque(closure!).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
            guard status == CAIRO_STATUS_SUCCESS else {
                return .failure(.engine(domain: "cairo", code: Int(status.rawValue), message: "cannot encode the screenshot as PNG"))
            }
            return .success(sink.bytes)
        }
    }
}

/// Where cairo's PNG writer puts its bytes (kept alive by the caller for the whole write).
private final class PNGSink {
    var bytes: [UInt8] = []
}
