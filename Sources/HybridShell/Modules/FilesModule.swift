import Foundation
import HybridShellCore
import HybridShellWebKit

/// The `files` module: `files.choose {title?}` → `{url, name, size}` or `CANCELLED` (a real GTK
/// chooser with `--window`; headless, `module_settings.file_choice` answers, or it is cancelled);
/// `url` is a `hybrid-file://` URL the calling document (its origin, its session) reads the file
/// through — the page never learns the file's path —; an audio or video file also gets
/// `mediaURL`, a loopback `http://127.0.0.1:PORT/…` URL that `<video>`/`<audio>` play and seek
/// (``FileShares/mediaURL(for:)``), valid exactly as long as `url`;
/// and `files.save {name, data, encoding?: utf8|base64}` → `{path, size}`: bytes the page gives,
/// written atomically (temporary file, then rename) into `<data-dir>/files`, or a per-run
/// temporary folder when ephemeral.
public enum FilesModule {
    public static let name = "files"
    public static let maxSave = 16 * 1024 * 1024

    static func module(headless: Bool, choice: String?, directory: String, shares: FileShares?) -> NativeModule {
        NativeModule(name: name) { handlers in
            handlers.registerRaw("files.choose", inOrder: { data, call in
                let arguments = try ModuleArguments(data, handler: "files.choose", fields: ["title"])
                let title = try arguments.optionalString("title", maxLength: 256) ?? "Choose a file"
                let path = headless ? choice : await Desktop.chooseFile(title: title)
                guard let path else { throw BridgeError(.cancelled, "no file was chosen", details: ["reason": "cancelled"]) }
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                      (attributes[.type] as? FileAttributeType) == .typeRegular else {
                    // Not the path: the page never learns where the user's files are.
                    throw BridgeError(.handlerError, "the chosen file cannot be read (not a readable regular file)", details: ["reason": "io"])
                }
                let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                guard let shares else {
                    throw BridgeError(.handlerError, "the chosen file cannot be handed to the page: the shell shares no files (fileShares is off)",
                                      details: ["reason": "share"])
                }
                let url: String
                do { url = try call.share(file: path, in: shares) } catch {
                    // A vanished file's error names its path: say only what went wrong.
                    let reason = if case .fileNotFound? = error as? ShellError { "it is no longer there" } else { "\(error)" }
                    throw BridgeError(.handlerError, "the chosen file cannot be shared with this page: \(reason)", details: ["reason": "share"])
                }
                var result: [String: JSONValue] = ["url": .string(url), "name": .string((path as NSString).lastPathComponent),
                                                   "size": .number(Double(size))]
                // Audio and video also get a loopback http URL that <video>/<audio> can play.
                do {
                    if let mediaURL = try shares.mediaURL(for: url) { result["mediaURL"] = .string(mediaURL) }
                } catch {
                    throw BridgeError(.handlerError, "the chosen media file cannot be served to this page: \(error)", details: ["reason": "share"])
                }
                return RawJSON(unchecked: JSONValue.object(result).jsonText)
            })
            handlers.registerRaw("files.save", sync: { data, call in
                let arguments = try ModuleArguments(data, handler: "files.save", fields: ["name", "data", "encoding"])
                let name = try arguments.string("name", maxLength: 255)
                guard name != ".", name != "..", !name.contains("/"), !name.contains("\\"), !name.hasPrefix("."),
                      !name.unicodeScalars.contains(where: isForbiddenInName) else {
                    throw arguments.invalid("name", "must be a plain file name (no /, \\, leading dot, control or bidirectional formatting characters), not \(JSONValue.quoted(name))")
                }
                let text = try arguments.string("data", maxLength: maxSave * 2, allowEmpty: true)
                let encoding = try arguments.optionalString("encoding", maxLength: 8) ?? "utf8"
                let bytes: Data
                switch encoding {
                case "utf8": bytes = Data(text.utf8)
                case "base64":
                    guard let decoded = Data(base64Encoded: text) else { throw arguments.invalid("data", "is not valid base64") }
                    bytes = decoded
                default: throw arguments.invalid("encoding", "must be utf8 or base64, not \(JSONValue.quoted(encoding))")
                }
                guard bytes.count <= maxSave else { throw arguments.invalid("data", "is \(bytes.count) bytes; the limit is \(maxSave)") }
                let path = try saveNew(bytes, name: name, in: (directory as NSString).appendingPathComponent(folderName(forOrigin: call.origin)))
                return RawJSON(unchecked: JSONValue.object(["path": .string(path), "size": .number(Double(bytes.count))]).jsonText)
            })
        }
    }
}
