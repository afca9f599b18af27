internal import CWebKitGTK
import Foundation
import HybridShellCore

/// PNG icons at the sizes a desktop wants, scaled by gdk-pixbuf (`gdk_pixbuf_new_from_file_at_scale`,
/// bilinear-filtered, saved with `gdk_pixbuf_save_to_bufferv`), for `hybrid-run bundle`. Needs no
/// display.
public enum IconScaler {
    /// The pixel size of an image file (`gdk_pixbuf_get_file_info`).
    public static func size(of path: String) throws(ShellError) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &width, &height) != nil else {
            throw .invalidArgument("\(path) is not an image gdk-pixbuf can read")
        }
        return (Int(width), Int(height))
    }

    /// The image at `path` as a `size`×`size` PNG.
    public static func png(_ path: String, size: Int) throws(ShellError) -> Data {
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file_at_scale(path, Int32(size), Int32(size), 0, &error) else {
            throw .invalidArgument("cannot read \(path): \(message(&error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        var buffer: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &length, "png", nil, nil, &error) != 0, let buffer else {
            throw .invalidArgument("cannot make a \(size)x\(size) PNG of \(path): \(message(&error))")
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }

    private static func message(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }
}
