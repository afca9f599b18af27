/// A GTK dialog a page asked WebKit to show, which HybridShell refuses in every mode: a print
/// dialog runs a nested main loop (the process then ignores SIGTERM and quit requests) and offers
/// "Print to File", a file chooser over a kiosk; a page's own choosers and password prompts are no
/// part of an unattended or automated run. The page carries on as if the user had cancelled.
public enum NativeDialogRequest: Sendable, Equatable {
    /// `window.print()` (`print`; refused by answering TRUE without running the operation).
    case print
    /// An `<input type=file>` (`run-file-chooser`; `webkit_file_chooser_request_cancel`).
    case fileChooser(multiple: Bool)
    /// An HTTP authentication challenge from `host` (`authenticate`; `webkit_authentication_request_cancel`).
    case authentication(host: String)
    /// An `<input type=color>` (`run-color-chooser`; `webkit_color_chooser_request_cancel`).
    case colorChooser

    /// The dialog's name in logs and event streams.
    public var name: String {
        switch self {
        case .print: "print"
        case .fileChooser: "fileChooser"
        case .authentication: "authentication"
        case .colorChooser: "colorChooser"
        }
    }

    /// What the page asked for, for a log line.
    public var summary: String {
        switch self {
        case .print: "a print dialog (window.print())"
        case .fileChooser(let multiple): "a file chooser (<input type=file\(multiple ? " multiple" : "")>)"
        case .authentication(let host): "an HTTP authentication dialog for \(host)"
        case .colorChooser: "a colour chooser (<input type=color>)"
        }
    }
}
