internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    /// Connects `print`, `run-file-chooser`, `authenticate` and `run-color-chooser`, whose default
    /// handlers open GTK dialogs (the print dialog in a nested main loop), and refuses each one as a
    /// user's cancel would, reporting ``PageEvent/nativeDialogRefused(_:)``. `script-dialog` is
    /// answered elsewhere; `show-option-menu` (a `<select>`'s popup menu, no nested loop) keeps
    /// WebKit's default.
    func connectNativeDialogSignals() {
        let instance = UnsafeMutableRawPointer(view)
        connections += [
            connectSignal(instance, "print", signalCallback(pointerPredicateSignalTrampoline),
                          { [weak self] _ in
                              // TRUE without running the operation: WebKit drops it, print() returns.
                              self?.onEvent(.nativeDialogRefused(.print))
                              return true
                          } as PointerPredicateSignal),
            connectSignal(instance, "run-file-chooser", signalCallback(pointerPredicateSignalTrampoline),
                          { [weak self] request in
                              guard let request else { return true }
                              let chooser = request.assumingMemoryBound(to: WebKitFileChooserRequest.self)
                              let multiple = webkit_file_chooser_request_get_select_multiple(chooser) != 0
                              webkit_file_chooser_request_cancel(chooser)
                              self?.onEvent(.nativeDialogRefused(.fileChooser(multiple: multiple)))
                              return true
                          } as PointerPredicateSignal),
            connectSignal(instance, "authenticate", signalCallback(pointerPredicateSignalTrampoline),
                          { [weak self] request in
                              guard let request else { return true }
                              let challenge = request.assumingMemoryBound(to: WebKitAuthenticationRequest.self)
                              let host = borrowCString(webkit_authentication_request_get_host(challenge)) ?? ""
                              webkit_authentication_request_cancel(challenge)
                              self?.onEvent(.nativeDialogRefused(.authentication(host: host)))
                              return true
                          } as PointerPredicateSignal),
            connectSignal(instance, "run-color-chooser", signalCallback(pointerPredicateSignalTrampoline),
                          { [weak self] request in
                              guard let request else { return true }
                              webkit_color_chooser_request_cancel(request.assumingMemoryBound(to: WebKitColorChooserRequest.self))
                              self?.onEvent(.nativeDialogRefused(.colorChooser))
                              return true
                          } as PointerPredicateSignal),
        ]
    }
}
