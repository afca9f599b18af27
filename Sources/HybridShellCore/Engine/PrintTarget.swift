/// Where ``WebView/printPage(to:)`` sends the current page (a `WebKitPrintOperation`).
public enum PrintTarget: Sendable, Equatable {
    /// A PDF file (GTK's "Print to File" printer, `output-uri` and `output-file-format` pdf), no dialog.
    case file(path: String)
    /// A named printer (CUPS), no dialog.
    case printer(name: String)
    /// GTK's print dialog over the page's window, with `printer` preselected when given; the person
    /// chooses or cancels.
    case dialog(printer: String?)
}

/// What a print operation did: the printer it went to, and the file for a PDF.
public struct PrintOutcome: Sendable, Equatable {
    public var printer: String
    public var file: String?

    public init(printer: String, file: String? = nil) {
        self.printer = printer
        self.file = file
    }
}
