import Foundation

/// Writes whole lines straight to a file descriptor the caller owns, so a reader of a pipe sees each
/// line as soon as it happens and lines written by several writers never tear.
public struct LineWriter: Sendable {
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ line: String) {
        writeRaw(line + "\n")
    }

    /// Writes text as it is (a progress line redrawn with `\r`).
    public func writeRaw(_ text: String) {
        let data = Array(text.utf8)
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nobody is listening any more
                }
                offset += written
            }
        }
    }
}
