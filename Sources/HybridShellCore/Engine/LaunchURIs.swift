import Foundation

/// The URLs a desktop app is launched with (`hybrid-run app APP.toml [URL…]`, a `.desktop`
/// file's `%u`), checked before they reach any instance: a deep link only in a scheme the app
/// declared (`schemes`), a file as a `file://` URI (relative paths from `directory`), anything
/// else refused with a message that names the app's schemes.
public enum LaunchURIs {
    public static func check(_ arguments: [String], appID: String, schemes: [String], directory: String) throws(ShellError) -> [String] {
        var uris: [String] = []
        for argument in arguments {
            if let scheme = scheme(of: argument) {
                guard scheme == "file" || schemes.contains(where: { $0.lowercased() == scheme }) else {
                    let declared = schemes.isEmpty ? "it declares no schemes" : "its schemes: \(schemes.joined(separator: ", "))"
                    throw .invalidArgument("\(appID) does not open \(scheme): links (\(declared)); refused \(JSONValue.quoted(argument))")
                }
                guard !argument.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) else {
                    throw .invalidArgument("\(JSONValue.quoted(argument)) is not a URL (spaces or control characters)")
                }
                uris.append(argument)
            } else {
                guard !argument.isEmpty else { throw .invalidArgument("an empty argument is neither a URL nor a file") }
                let path = argument.hasPrefix("/") ? argument : (directory as NSString).appendingPathComponent(argument)
                uris.append(URL(fileURLWithPath: path).standardizedFileURL.absoluteString)
            }
        }
        return uris
    }

    /// The lowercased scheme of `text` when it starts with one (`shop:`), else nil (a path).
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let candidate = text[..<colon]
        guard let first = candidate.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              candidate.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0)) })
        else { return nil }
        return candidate.lowercased()
    }
}
