internal import CWebKitGTK
import HybridShellCore

/// GTK's native file chooser (`GtkFileChooserNative`, the portal's or GTK's own dialog) for the
/// `files` module in window mode. Shown without a nested loop; the answer comes with `response`.
@EngineActor
enum FileChooser {
    /// The chosen file's path, or nil when the user cancelled.
    static func chooseFile(title: String) async -> String? {
        guard let dialog = gtk_file_chooser_native_new(title, nil, GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel") else { return nil }
        let instance = UnsafeMutableRawPointer(dialog)
        return await withCheckedContinuation { continuation in
            var connection: SignalConnection?
            // response is `void (GtkNativeDialog*, gint response_id, gpointer)`.
            let signal: EnumSignal = { response in
                var path: String?
                if Int32(bitPattern: response) == GTK_RESPONSE_ACCEPT.rawValue,
                   let name = gtk_file_chooser_get_filename(OpaquePointer(instance)) {
                    path = String(cString: name)
                    g_free(name)
                }
                connection?.disconnect()
                g_object_unref(instance)
                continuation.resume(returning: path)
            }
            connection = connectSignal(instance, "response", unsafeBitCast(enumSignalTrampoline, to: GCallback.self), signal)
            gtk_native_dialog_show(instance.assumingMemoryBound(to: GtkNativeDialog.self))
        }
    }
}
