import Foundation

/// The scanner's tokens: literals, numbers and strings (with the word-at-a-time scan of plain
/// string bytes).
extension JSONScanner {
    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error(.unexpectedEnd) }
        for offset in 0..<count where bytes[start + offset] != word.utf8Start[offset] {
            index = start + offset
            throw unexpected()
        }
        index += count
    }

    /// Scans a number; returns its value when `decode` is set (0 otherwise).
    mutating func scanNumber(decode: Bool) throws(JSONSyntaxError) -> Double {
        let start = index
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            throw index == start ? unexpected() : error(.invalidNumber, at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(.invalidNumber, at: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(.invalidNumber, at: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        guard decode else { return 0 }
        if let integer = JSONScanner.smallInteger(bytes, start..<index) { return integer }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw error(.invalidNumber, at: start) }
        return value
    }

    /// The value of a number made only of an optional minus and at most 15 digits (ids, counts),
    /// read without a string and `strtod`: every such integer is exact as a Double. nil otherwise.
    static func smallInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard range.upperBound - index <= 15 else { return nil }
        var value: Int64 = 0
        while index < range.upperBound {
            let digit = bytes[index] &- 0x30
            guard digit <= 9 else { return nil }
            value = value &* 10 &+ Int64(digit)
            index += 1
        }
        // -0 stays a negative zero, as strtod reads it.
        return negative ? -Double(value) : Double(value)
    }

    /// Scans a string literal at the cursor. Returns the decoded string when `decode` is set.
    /// A lone UTF-16 surrogate escape (which JSON allows and Swift strings cannot hold) decodes as
    /// U+FFFD; raw payload text is passed on untouched, so pages still get theirs back byte-exact.
    mutating func scanString(decode: Bool) throws(JSONSyntaxError) -> String? {
        index += 1  // the opening quote
        let contentStart = index
        var hasEscapes = false
        while true {
            // The hot loop for large payloads: plain bytes until a quote, backslash or control,
            // eight bytes at a time while none of them is special.
            index = JSONScanner.skipPlainStringBytes(bytes, from: index)
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
                index += 1
            }
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            let byte = bytes[index]
            if byte == 0x22 { break }
            if byte < 0x20 { throw error(.controlCharacterInString) }
            hasEscapes = true
            index += 1
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            switch bytes[index] {
            case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: index += 1
            case 0x75:
                guard index + 4 < bytes.count else { throw error(.unexpectedEnd) }
                for offset in 1...4 where hexValue(bytes[index + offset]) == nil {
                    throw error(.invalidEscape, at: index - 1)
                }
                index += 5
            default:
                throw error(.invalidEscape, at: index - 1)
            }
        }
        let contentEnd = index
        index += 1  // the closing quote
        guard decode else { return nil }
        let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<contentEnd])
        if !hasEscapes { return String(decoding: content, as: UTF8.self) }
        return JSONScanner.unescape(content)
    }

    /// The index of the first 8-byte word (from `start`) that holds a `"`, a `\\` or a control
    /// byte; the byte loop finds which one. Word tricks from "Bit Twiddling Hacks": a word has a
    /// zero byte iff (w - 0x01…01) & ~w & 0x80…80 is non-zero; bytes below n (n ≤ 0x80) likewise.
    @inline(__always)
    static func skipPlainStringBytes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = ones &* 0x22
        let backslashes = ones &* 0x5C
        var index = start
        while index &+ 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ quotes
            let backslash = word ^ backslashes
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { break }
            index &+= 8
        }
        return index
    }

    static func unescape(_ content: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var utf8 = [UInt8]()
        var index = 0
        func flush() {
            if !utf8.isEmpty {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll(keepingCapacity: true)
            }
        }
        func hex4(_ at: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 << 4 | UInt32(hexValue(content[at + $1])!) }
        }
        while index < content.count {
            let byte = content[index]
            guard byte == 0x5C else { utf8.append(byte); index += 1; continue }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case 0x62: utf8.append(0x08)
            case 0x66: utf8.append(0x0C)
            case 0x6E: utf8.append(0x0A)
            case 0x72: utf8.append(0x0D)
            case 0x74: utf8.append(0x09)
            case 0x75:
                flush()
                var code = hex4(index)
                index += 4
                if (0xD800..<0xDC00).contains(code), index + 6 <= content.count,
                   content[index] == 0x5C, content[index + 1] == 0x75
                {
                    let low = hex4(index + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: utf8.append(escape)  // \" \\ \/
            }
        }
        flush()
        return String(scalars)
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
}
