internal import CWebKitGTK
import HybridShellCore

/// The `ui` module's native toast and modal in window mode: a `GtkDialog` with a label and its
/// buttons (answered through `response`, no nested loop), and an undecorated popup `GtkWindow` that
/// goes away after its duration.
@EngineActor
enum NativeDialogs {
    /// Shows a modal dialog over `parent`'s window; true when the user confirmed.
    static func showModal(over parent: WebView?, title: String, content: String, confirmText: String, cancelText: String?) async -> Bool {
        guard let dialog = gtk_dialog_new() else { return false }
        let instance = UnsafeMutableRawPointer(dialog)
        let asDialog = instance.assumingMemoryBound(to: GtkDialog.self)
        gtk_window_set_title(hs_window(dialog), title)
        gtk_window_set_modal(hs_window(dialog), 1)
        if let window = parent?.native.window { gtk_window_set_transient_for(hs_window(dialog), hs_window(window)) }
        let label = gtk_label_new(content)!
        gtk_label_set_line_wrap(UnsafeMutableRawPointer(label).assumingMemoryBound(to: GtkLabel.self), 1)
        gtk_container_add(hs_container(gtk_dialog_get_content_area(asDialog)), label)
        if let cancelText { _ = gtk_dialog_add_button(asDialog, cancelText, GTK_RESPONSE_CANCEL.rawValue) }
        _ = gtk_dialog_add_button(asDialog, confirmText, GTK_RESPONSE_OK.rawValue)
        // Return confirms, as in WeChat's modal; Escape (or closing the window) cancels.
        gtk_dialog_set_default_response(asDialog, GTK_RESPONSE_OK.rawValue)
        if let ok = gtk_dialog_get_widget_for_response(asDialog, GTK_RESPONSE_OK.rawValue) { gtk_widget_grab_focus(ok) }
        gtk_widget_show_all(dialog)
        return await withCheckedContinuation { continuation in
            var connection: SignalConnection?
            // response is `void (GtkDialog*, gint response_id, gpointer)`; closing the window is a
            // response too (GTK_RESPONSE_DELETE_EVENT), answered as cancel.
            let signal: EnumSignal = { response in
                connection?.disconnect()
                gtk_widget_destroy(dialog)
                continuation.resume(returning: Int32(bitPattern: response) == GTK_RESPONSE_OK.rawValue)
            }
            connection = connectSignal(instance, "response", unsafeBitCast(enumSignalTrampoline, to: GCallback.self), signal)
        }
    }

    /// Shows `text` in a small popup centred on `parent`'s window for `duration`.
    static func showToast(over parent: WebView?, text: String, duration: Duration) {
        guard let popup = gtk_window_new(GTK_WINDOW_POPUP) else { return }
        let label = gtk_label_new(text)!
        gtk_widget_set_margin_start(label, 16)
        gtk_widget_set_margin_end(label, 16)
        gtk_widget_set_margin_top(label, 10)
        gtk_widget_set_margin_bottom(label, 10)
        gtk_container_add(hs_container(popup), label)
        if let window = parent?.native.window {
            gtk_window_set_transient_for(hs_window(popup), hs_window(window))
            gtk_window_set_position(hs_window(popup), GTK_WIN_POS_CENTER_ON_PARENT)
        } else {
            gtk_window_set_position(hs_window(popup), GTK_WIN_POS_CENTER)
        }
        gtk_widget_show_all(popup)
        let box = UncheckedOptionalPointer(popup)
        let id = nextToast
        nextToast += 1
        toastTimers[id] = LoopTimer(after: duration) {
            if let widget = box.raw { gtk_widget_destroy(widget.assumingMemoryBound(to: GtkWidget.self)) }
            toastTimers[id] = nil
        }
    }

    /// Each toast's timer, kept until it fires.
    private static var toastTimers: [Int: LoopTimer] = [:]
    private static var nextToast = 0
}
