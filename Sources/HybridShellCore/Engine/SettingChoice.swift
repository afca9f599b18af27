/// A closed set of values a setting takes, read the same way from flags and configuration files
/// (the CLI adds `ExpressibleByArgument` for its help and completion).
public protocol SettingChoice: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension SettingChoice {
    /// The values in prose: `accept or dismiss`, `same-view, new-page or deny`.
    public static var choicesText: String {
        let names = allCases.map(\.rawValue)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The value named `text`, or an error naming `setting` and every value it takes.
    public static func parse(_ text: String, setting: String) throws(ShellError) -> Self {
        guard let value = Self(rawValue: text) else {
            throw .invalidArgument("\(setting) takes \(choicesText), not \(JSONValue.quoted(text))")
        }
        return value
    }
}
