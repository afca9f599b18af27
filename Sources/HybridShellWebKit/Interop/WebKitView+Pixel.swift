internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    /// The colour (0xRRGGBB) of one pixel of `webkit_web_view_get_snapshot`'s visible region, read
    /// through `cairo_surface_map_to_image` (the snapshot need not be an image surface).
    func snapshotPixel(x: Int, y: Int) async throws(ShellError) -> UInt32 {
        try await snapshot { surface -> Result<UInt32, ShellError> in
            guard let image = cairo_surface_map_to_image(surface, nil) else { return .failure(.invalidArgument("the snapshot cannot be read")) }
            defer { cairo_surface_unmap_image(surface, image) }
            let width = Int(cairo_image_surface_get_width(image)), height = Int(cairo_image_surface_get_height(image))
            let format = cairo_image_surface_get_format(image)
            guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24, let data = cairo_image_surface_get_data(image),
                  x >= 0, y >= 0, x < width, y < height else {
                return .failure(.invalidArgument("no pixel (\(x), \(y)) in a \(width)x\(height) snapshot"))
            }
            // Both formats are native-endian 32-bit words with red, green, blue in the low 24 bits.
            let row = UnsafeRawPointer(data.advanced(by: y * Int(cairo_image_surface_get_stride(image))))
            return .success(row.load(fromByteOffset: x * 4, as: UInt32.self) & 0xFF_FFFF)
        }
    }
}
