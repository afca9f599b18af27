/// The texts of the dsbridge prompt gate (`_hybridshell_ds=`): every backslash travels as U+0001,
/// both ways (bridge-js/PROTOCOL.md, "Dialect gates").
///
/// Why: WebCore passes a prompt's message, its default text and the answer through
/// `displayStringModifiedByEncoding`, which shows every backslash as a yen sign (U+00A5) in
/// documents in a Japanese encoding (Shift_JIS, EUC-JP, ISO-2022-JP). JSON escapes are backslashes,
/// so a synchronous dsbridge call from such a page lost its quotes and escapes, both ways. JSON
/// text never holds a raw control character, so U+0001 stands in for the backslash without
/// ambiguity; both are ASCII, so swapping bytes keeps the UTF-8 valid.
enum PromptText {
    /// A text as the page wrote it (its U+0001s back to backslashes).
    static func decode(_ text: String) -> String {
        swap(text, 0x01, for: 0x5C)
    }

    /// A text as it travels (its backslashes as U+0001).
    static func encode(_ text: String) -> String {
        swap(text, 0x5C, for: 0x01)
    }

    private static func swap(_ text: String, _ byte: UInt8, for replacement: UInt8) -> String {
        guard text.utf8.contains(byte) else { return text }
        return String(decoding: text.utf8.map { $0 == byte ? replacement : $0 }, as: UTF8.self)
    }
}
