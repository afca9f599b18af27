/// A reply of the kiosk's control socket: one line of JSON, an object with a boolean `ok`, an
/// `error` message when `ok` is false, and whatever else the command reports.
///
///     {"ok":true,"url":"https://example.org/"}
///     {"ok":false,"error":"unknown command \"frob\": …"}
///
/// The static functions build reply lines (the kiosk's side); `init(parsing:)` reads one (the
/// client's side).
package struct ControlReply: Sendable, Equatable {
    /// Whether the kiosk did what was asked.
    public let ok: Bool
    /// Why not, when `ok` is false and the kiosk said (its `error` member).
    public let error: String?
    /// The whole reply object, `ok` and `error` included.
    public let fields: [String: JSONValue]

    /// Reads a reply line. Throws when it is not a JSON object with a boolean `ok`.
    public init(parsing line: String) throws(ShellError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw .invalidArgument("the kiosk's reply is not JSON (\(error)): \(line)")
        }
        guard let fields = value.objectValue else {
            throw .invalidArgument("the kiosk's reply is \(value.typeName), not a JSON object: \(line)")
        }
        guard let ok = fields["ok"]?.boolValue else {
            throw .invalidArgument("the kiosk's reply has no boolean \"ok\": \(line)")
        }
        self.ok = ok
        self.error = ok ? nil : fields["error"]?.stringValue
        self.fields = fields
    }

    /// A success line: `{"ok":true}` plus `fields` (an `ok` among them is overridden).
    public static func ok(_ fields: [String: JSONValue] = [:]) -> String {
        var members = fields
        members["ok"] = true
        return JSONValue.object(members).jsonText
    }

    /// A failure line: `{"ok":false,"error":message}`.
    public static func error(_ message: String) -> String {
        UnixSocketListener.refusal(message)
    }
}
