import HybridShellCore

extension WebView {
    /// Prints the current page to `target` (`webkit_print_operation_print`; for
    /// ``PrintTarget/dialog(printer:)`` after GTK's print dialog, shown without a nested loop).
    /// Nil when the person cancelled the dialog; throws when the printer is unknown or the job
    /// failed. The page's own `window.print()` stays refused.
    public func printPage(to target: PrintTarget) async throws(ShellError) -> PrintOutcome? {
        try await native.printPage(to: target)
    }
}
