import Crypto
import Foundation

/// SHA-256 as lower-case hex, in one call or streamed.
package struct SHA256Hex {
    private var hasher = SHA256()

    mutating func update(_ data: Data) { hasher.update(data: data) }
    mutating func update(_ buffer: UnsafeRawBufferPointer) { hasher.update(bufferPointer: buffer) }

    func finalize() -> String { Self.hex(hasher.finalize()) }

    package static func digest(_ data: Data) -> String { hex(SHA256.hash(data: data)) }

    static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
