import Foundation
internal import CGLib

/// gzip through GIO's `GZlibCompressor` (`G_ZLIB_COMPRESSOR_FORMAT_GZIP`, level 9). No file name
/// and no time stamp go into the header (as `gzip -9n`): the same input gives the same bytes.
package enum Gzip {
    package static func compress(_ data: Data) throws(ShellError) -> Data {
        let compressor = g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9)!
        defer { g_object_unref(UnsafeMutableRawPointer(compressor)) }
        let input = [UInt8](data)
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var offset = 0
        while true {
            var read: gsize = 0, written: gsize = 0
            var error: UnsafeMutablePointer<GError>?
            let result = input.withUnsafeBytes { bytes in
                buffer.withUnsafeMutableBytes { out in
                    g_converter_convert(compressor, bytes.baseAddress.map { $0 + offset }, gsize(input.count - offset),
                                        out.baseAddress, gsize(out.count), G_CONVERTER_INPUT_AT_END, &read, &written, &error)
                }
            }
            if result == G_CONVERTER_ERROR {
                let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                g_clear_error(&error)
                throw .invalidArgument("gzip failed: \(message)")
            }
            offset += Int(read)
            output.append(contentsOf: buffer[0..<Int(written)])
            if result == G_CONVERTER_FINISHED { return output }
        }
    }
}
