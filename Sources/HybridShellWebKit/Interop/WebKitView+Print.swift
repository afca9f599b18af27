internal import CWebKitGTK
import Foundation
import HybridShellCore

extension WebKitView {
    /// Prints the current page with a `WebKitPrintOperation` (`webkit_print_operation_print`, no
    /// dialog) to `target`, or after GTK's print dialog. The page's own `print` signal stays
    /// refused (``connectNativeDialogSignals()``): this is the shell printing, not `window.print()`.
    /// A PDF appears only whole: it is written under a hidden name next to it, then renamed.
    /// Nil when the person cancelled the dialog.
    func printPage(to target: PrintTarget) async throws(ShellError) -> PrintOutcome? {
        let settings = gtk_print_settings_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        var partial: String?
        switch target {
        case .file(let path):
            // The file backend's printer is named in the user's language ("Print to File").
            gtk_print_settings_set_printer(settings, g_dgettext("gtk30", "Print to File"))
            let temporary = ((path as NSString).deletingLastPathComponent as NSString)
                .appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).part")
            guard let uri = g_filename_to_uri(temporary, nil, nil) else { throw .invalidArgument("cannot print to \(path)") }
            gtk_print_settings_set(settings, "output-uri", uri)
            g_free(uri)
            gtk_print_settings_set(settings, "output-file-format", "pdf")
            partial = temporary
        case .printer(let name):
            gtk_print_settings_set_printer(settings, name)
        case .dialog(let printer):
            if let printer { gtk_print_settings_set_printer(settings, printer) }
            guard let chosen = await choosePrinter(settings) else { return nil }
            defer {
                g_object_unref(UnsafeMutableRawPointer(chosen.settings))
                if let pageSetup = chosen.pageSetup { g_object_unref(UnsafeMutableRawPointer(pageSetup)) }
            }
            let name = borrowCString(gtk_print_settings_get_printer(chosen.settings)) ?? ""
            if let failure = await run(settings: chosen.settings, pageSetup: chosen.pageSetup) { throw failure }
            return PrintOutcome(printer: name)
        }
        let printer = borrowCString(gtk_print_settings_get_printer(settings)) ?? ""
        let failure = await run(settings: settings, pageSetup: nil)
        if let partial {
            if let failure {
                unlink(partial)
                throw failure
            }
            guard case .file(let path) = target, rename(partial, path) == 0 else {
                unlink(partial)
                throw .engine(domain: "g-io-error-quark", code: Int(errno), message: "cannot write the PDF: \(String(cString: strerror(errno)))")
            }
            return PrintOutcome(printer: printer, file: path)
        }
        if let failure { throw failure }
        return PrintOutcome(printer: printer)
    }

    /// Runs the operation; nil when it finished, else why it failed (`failed` comes before `finished`).
    private func run(settings: OpaquePointer, pageSetup: OpaquePointer?) async -> ShellError? {
        let operation = webkit_print_operation_new(view)!
        webkit_print_operation_set_print_settings(operation, settings)
        if let pageSetup { webkit_print_operation_set_page_setup(operation, pageSetup) }
        let instance = UnsafeMutableRawPointer(operation)
        return await withCheckedContinuation { continuation in
            let failure = PrintFailure()
            // The handlers go when the operation is finalised (its last reference is dropped in `finished`).
            _ = connectSignal(instance, "failed", signalCallback(pointerSignalTrampoline), { error in
                guard let error else { return }
                let problem = GLibError(borrowing: error.assumingMemoryBound(to: GError.self))
                failure.error = .engine(domain: problem.domain, code: problem.code, message: problem.message)
            } as PointerSignal)
            _ = connectSignal(instance, "finished", signalCallback(voidSignalTrampoline), {
                g_object_unref(instance)
                continuation.resume(returning: failure.error)
            } as VoidSignal)
            // May fail (an unknown printer) and finish before it returns.
            webkit_print_operation_print(operation)
        }
    }

    /// GTK's print dialog over the view's window, answered through `response` (no nested loop):
    /// the chosen settings (with the printer) and page setup, or nil when cancelled.
    private func choosePrinter(_ settings: OpaquePointer) async -> PrintChoice? {
        let widget = gtk_print_unix_dialog_new(nil, window.map { hs_window($0) })!
        let dialog = OpaquePointer(widget)
        gtk_print_unix_dialog_set_settings(dialog, settings)
        gtk_print_unix_dialog_set_embed_page_setup(dialog, 1)
        gtk_window_set_modal(hs_window(widget), 1)
        gtk_widget_show_all(widget)
        let instance = UnsafeMutableRawPointer(widget)
        return await withCheckedContinuation { continuation in
            var connection: SignalConnection?
            let signal: EnumSignal = { response in
                connection?.disconnect()
                var chosen: PrintChoice?
                if Int32(bitPattern: response) == GTK_RESPONSE_OK.rawValue, let picked = gtk_print_unix_dialog_get_settings(dialog) {
                    if let printer = gtk_print_unix_dialog_get_selected_printer(dialog) { gtk_print_settings_set_printer(picked, gtk_printer_get_name(printer)) }
                    let setup = gtk_print_unix_dialog_get_page_setup(dialog).map { OpaquePointer(g_object_ref(UnsafeMutableRawPointer($0))!) }
                    chosen = PrintChoice(settings: picked, pageSetup: setup)
                }
                gtk_widget_destroy(widget)
                continuation.resume(returning: chosen)
            }
            connection = connectSignal(instance, "response", signalCallback(enumSignalTrampoline), signal)
        }
    }
}

/// The dialog's answer, owned references handed from the signal to the waiting task (both on the loop thread).
private struct PrintChoice: @unchecked Sendable {
    let settings: OpaquePointer
    let pageSetup: OpaquePointer?
}

/// Why a print operation failed, set by `failed` and read by `finished`.
@EngineActor
private final class PrintFailure {
    var error: ShellError?
}
