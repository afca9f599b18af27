import Synchronization

/// The `clipboard` module: `clipboard.set {data}` and `clipboard.get` → `{data}` (text;
/// wx.setClipboardData / getClipboardData). With `--window` it is the desktop's clipboard (GTK);
/// headless it is a private one per run, starting with `initialText`, so page tests are
/// deterministic and cannot see each other.
public enum ClipboardModule {
    public static let name = "clipboard"
    static let maxLength = 1024 * 1024

    static func module(headless: Bool, initialText: String) -> NativeModule {
        let privateClipboard = Mutex(initialText)
        return NativeModule(name: name) { handlers in
            handlers.registerRaw("clipboard.set", inOrder: { data, _ in
                let arguments = try ModuleArguments(data, handler: "clipboard.set", fields: ["data"])
                let text = try arguments.string("data", maxLength: maxLength, allowEmpty: true)
                if headless { privateClipboard.withLock { $0 = text } } else { Desktop.setClipboardText(text) }
                return .null
            })
            handlers.registerRaw("clipboard.get", inOrder: { data, _ in
                _ = try ModuleArguments(data, handler: "clipboard.get", fields: [])
                let text = headless ? privateClipboard.withLock { $0 } : await Desktop.clipboardText()
                return RawJSON(unchecked: JSONValue.object(["data": .string(text)]).jsonText)
            })
        }
    }
}
