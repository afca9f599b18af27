/// Line numbers (1-based) for byte offsets, for messages about files.
enum TextPosition {
    static func line(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    static func line(of offset: Int, in text: String) -> Int {
        1 + text.utf8.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
