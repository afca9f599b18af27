import Synchronization
import HybridShellCore
import HybridShellWebKit

/// The `clipboard` module: `clipboard.set {data}` and `clipboard.get` → `{data}` (text;
/// wx.setClipboardData / getClipboardData). With `--window` it is the desktop's clipboard (GTK);
/// headless it is a private one per run, starting with `initialText`, so page tests are
/// deterministic and cannot see each other; with a `partition` (page tests) each page run has its own.
public enum ClipboardModule {
    public static let name = "clipboard"
    static let maxLength = 1024 * 1024

    /// `visibility` refuses calls from pages the user does not see (see ``ClipboardVisibility``);
    /// nil where every caller is in the foreground (page tests).
    static func module(headless: Bool, initialText: String, partition: (@Sendable (BridgeCall) -> String)? = nil,
                       visibility: (@EngineActor @Sendable (BridgeCall) -> BridgeError?)? = nil) -> NativeModule {
        let privateClipboards = Mutex<[String: String]>([:])
        return NativeModule(name: name) { handlers in
            handlers.registerRaw("clipboard.set", inOrder: { data, call in
                if let refusal = visibility?(call) { throw refusal }
                let arguments = try ModuleArguments(data, handler: "clipboard.set", fields: ["data"])
                let text = try arguments.string("data", maxLength: maxLength, allowEmpty: true)
                let key = partition?(call) ?? ""
                if headless { privateClipboards.withLock { $0[key] = text } } else { Desktop.setClipboardText(text) }
                return .null
            })
            handlers.registerRaw("clipboard.get", inOrder: { data, call in
                if let refusal = visibility?(call) { throw refusal }
                _ = try ModuleArguments(data, handler: "clipboard.get", fields: [])
                let key = partition?(call) ?? ""
                let text = headless ? privateClipboards.withLock { $0[key] ?? initialText } : await Desktop.clipboardText()
                return RawJSON(unchecked: JSONValue.object(["data": .string(text)]).jsonText)
            })
        }
    }
}
