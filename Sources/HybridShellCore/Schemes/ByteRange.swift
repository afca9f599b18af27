/// A single `Range: bytes=…` request resolved against a body length (RFC 9110 §14.1.2).
/// Multiple ranges are answered with the whole body, which the RFC allows.
public struct ByteRange: Sendable, Equatable {
    public let offset: UInt64
    public let length: UInt64

    public init(offset: UInt64, length: UInt64) {
        self.offset = offset
        self.length = length
    }

    public enum Outcome: Sendable, Equatable {
        /// No usable Range header: send everything (200).
        case whole
        /// 206 with `Content-Range: bytes first-last/size`.
        case partial(ByteRange)
        /// 416 with `Content-Range: bytes */size`.
        case unsatisfiable
    }

    public static func resolve(_ header: String?, size: UInt64) -> Outcome {
        guard let header = header?.trimmingCharacters(in: .whitespaces), header.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let lastText = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let digits = { (text: String) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        if firstText.isEmpty {
            // bytes=-N: the last N bytes.
            guard digits(lastText), let suffix = UInt64(lastText) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            let length = min(suffix, size)
            return .partial(ByteRange(offset: size - length, length: length))
        }
        guard digits(firstText), let first = UInt64(firstText) else { return .whole }
        guard first < size else { return .unsatisfiable }
        var last = size - 1
        if !lastText.isEmpty {
            guard digits(lastText), let given = UInt64(lastText) else { return .whole }
            guard given >= first else { return .whole }
            last = min(given, size - 1)
        }
        return .partial(ByteRange(offset: first, length: last - first + 1))
    }

    public func contentRange(size: UInt64) -> String { "bytes \(offset)-\(offset + length - 1)/\(size)" }
}

import Foundation
