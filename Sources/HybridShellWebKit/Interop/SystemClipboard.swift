internal import CWebKitGTK
import HybridShellCore

/// The desktop's clipboard (`GtkClipboard` for the `CLIPBOARD` selection), for the `clipboard`
/// module in window mode. Reading is asynchronous (`gtk_clipboard_request_text`): no nested loop.
@EngineActor
enum SystemClipboard {
    private static var clipboard: OpaquePointer? {
        gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0))
    }

    static func setText(_ text: String) {
        guard let clipboard else { return }
        gtk_clipboard_set_text(clipboard, text, -1)
        gtk_clipboard_store(clipboard)
    }

    /// The clipboard's text ("" when it holds none).
    static func text() async -> String {
        guard let clipboard else { return "" }
        return await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(ClipboardRequest(continuation)).toOpaque()
            gtk_clipboard_request_text(clipboard, clipboardTextReceived, box)
        }
    }
}

/// The continuation GTK carries to ``clipboardTextReceived``; released there, exactly once.
private final class ClipboardRequest {
    let continuation: CheckedContinuation<String, Never>
    init(_ continuation: CheckedContinuation<String, Never>) { self.continuation = continuation }
}

private let clipboardTextReceived: GtkClipboardTextReceivedFunc = { _, text, data in
    let request = Unmanaged<ClipboardRequest>.fromOpaque(data!).takeRetainedValue()
    request.continuation.resume(returning: text.map { String(cString: $0) } ?? "")
}
