/// One entry of an X authority file (the format `xauth` writes and libXau reads): family, address,
/// display number, auth name and data, each a big-endian 16-bit length and the bytes.
struct XauthorityEntry: Equatable, Sendable {
    /// `FamilyWild`: matches any host. With an empty display number it matches any display, which
    /// lets the file be written before Xvfb has chosen its number (`-displayfd`).
    static let familyWild: UInt16 = 0xFFFF

    var family: UInt16 = familyWild
    var address: [UInt8] = []
    var number: [UInt8] = []
    var name: [UInt8] = Array("MIT-MAGIC-COOKIE-1".utf8)
    var data: [UInt8]

    /// A MIT-MAGIC-COOKIE-1 entry for any host and display.
    static func cookie(_ bytes: [UInt8]) -> XauthorityEntry {
        XauthorityEntry(data: bytes)
    }

    /// The entry as the file stores it.
    var bytes: [UInt8] {
        var out = [UInt8(family >> 8), UInt8(family & 0xFF)]
        for field in [address, number, name, data] {
            out += [UInt8(field.count >> 8), UInt8(field.count & 0xFF)] + field
        }
        return out
    }
}
