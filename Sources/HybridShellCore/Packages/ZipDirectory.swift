import Foundation

/// An independent reading of a zip archive's central directory, the part that says what an
/// extractor would create. ZIPFoundation decompresses; this decides. It sees the raw name bytes
/// (NUL, non-UTF-8), the Unix file type (symlinks, devices), entries sharing one local header (the
/// zip form of a hard link, and of overlapping-entry bombs), encryption and compression methods.
struct ZipDirectory {
    enum Kind: Equatable { case file, directory, symlink, special }

    struct Record {
        /// The name, or nil when its bytes are not UTF-8.
        let name: String?
        let rawName: Data
        let kind: Kind
        let method: UInt16
        let encrypted: Bool
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        let localHeaderOffset: UInt64

        /// The name for messages: its text, or its bytes in hex when they are not UTF-8.
        var displayName: String { name ?? "0x" + SHA256Hex.hex(rawName) }
    }

    let records: [Record]

    static let endRecordSize = 22

    /// Reads the directory of `file`, whose end-of-central-directory record has a comment of
    /// exactly `commentLength` bytes (the signature line).
    init(file: FileHandle, fileSize: UInt64, commentLength: Int, maximumEntries: Int) throws(PackageError) {
        let endOffset = fileSize - UInt64(commentLength + Self.endRecordSize)
        let end = try Self.read(file, at: endOffset, count: Self.endRecordSize)
        guard end.le32(0) == 0x0605_4b50 else { throw .malformedArchive("no end-of-central-directory record") }
        guard end.le16(4) == 0, end.le16(6) == 0, end.le16(8) == end.le16(10) else {
            throw .malformedArchive("multi-disk archives are not supported")
        }
        let count = Int(end.le16(10)), size = UInt64(end.le32(12)), offset = UInt64(end.le32(16))
        guard count != 0xFFFF, size != 0xFFFF_FFFF, offset != 0xFFFF_FFFF else {
            throw .malformedArchive("ZIP64 archives are not supported")
        }
        guard count <= maximumEntries else { throw .limitExceeded("\(count) entries, the limit is \(maximumEntries)") }
        guard offset + size <= endOffset else { throw .malformedArchive("the central directory lies outside the archive") }
        let directory = try Self.read(file, at: offset, count: Int(size))
        var records = [Record](), position = 0, offsets = [UInt64: String]()
        for _ in 0..<count {
            guard position + 46 <= directory.count, directory.le32(position) == 0x0201_4b50 else {
                throw .malformedArchive("central directory record \(records.count + 1) is damaged")
            }
            let nameLength = Int(directory.le16(position + 28)), extraLength = Int(directory.le16(position + 30))
            let commentLength = Int(directory.le16(position + 32))
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else { throw .malformedArchive("central directory record \(records.count + 1) is truncated") }
            let start = directory.startIndex + position + 46
            let rawName = Data(directory[start..<(start + nameLength)])
            let host = directory.le16(position + 4) >> 8
            let mode = (directory.le32(position + 38) >> 16) & 0o170000
            let name = String(validating: rawName, as: UTF8.self)
            let kind: Kind
            if host == 3 && mode == 0o120000 { kind = .symlink }
            else if (host == 3 && mode == 0o040000) || rawName.last == UInt8(ascii: "/") { kind = .directory }
            else if host == 3 && mode != 0 && mode != 0o100000 { kind = .special }
            else { kind = .file }
            let record = Record(name: name, rawName: rawName, kind: kind, method: directory.le16(position + 10),
                                encrypted: directory.le16(position + 8) & 1 != 0,
                                compressedSize: UInt64(directory.le32(position + 20)),
                                uncompressedSize: UInt64(directory.le32(position + 24)),
                                localHeaderOffset: UInt64(directory.le32(position + 42)))
            guard record.localHeaderOffset < offset else {
                throw .malformedArchive("entry \(record.displayName) points outside the archive's data")
            }
            if let other = offsets.updateValue(record.displayName, forKey: record.localHeaderOffset) {
                throw .unsafeEntry(name: record.displayName, reason: "shares its data with \(other) (a hard link)")
            }
            records.append(record)
            position = next
        }
        self.records = records
    }

    static func read(_ file: FileHandle, at offset: UInt64, count: Int) throws(PackageError) -> Data {
        do {
            try file.seek(toOffset: offset)
            let data = try file.read(upToCount: count) ?? Data()
            guard data.count == count else { throw PackageError.malformedArchive("the archive is truncated") }
            return data
        } catch let error as PackageError {
            throw error
        } catch {
            throw .malformedArchive("cannot read the archive: \(error)")
        }
    }
}

extension Data {
    func le16(_ at: Int) -> UInt16 {
        let i = startIndex + at
        return UInt16(self[i]) | UInt16(self[i + 1]) << 8
    }

    func le32(_ at: Int) -> UInt32 {
        let i = startIndex + at
        return UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
}
