import HybridShellCore

/// The desktop around the pages, as native modules use it: the clipboard (`GtkClipboard`), a file
/// chooser (`GtkFileChooserNative`), native toast and modal dialogs, the screen (`GdkMonitor`) and
/// the network status (`GNetworkMonitor`). Interop implements each over GTK and GIO.
@EngineActor
package enum Desktop {
    package static func setClipboardText(_ text: String) { SystemClipboard.setText(text) }

    package static func clipboardText() async -> String { await SystemClipboard.text() }

    /// The path the person picked, or nil when they cancelled.
    package static func chooseFile(title: String) async -> String? { await FileChooser.chooseFile(title: title) }

    /// The primary monitor's size in logical pixels and its scale factor.
    package static func screen() -> (width: Int, height: Int, scale: Int)? { DisplayInfo.screen() }

    /// A modal dialog over `parent`'s window; true when the person confirmed.
    package static func showModal(over parent: WebView?, title: String, content: String, confirmText: String, cancelText: String?) async -> Bool {
        await NativeDialogs.showModal(over: parent, title: title, content: content, confirmText: confirmText, cancelText: cancelText)
    }

    /// A short message over `parent`'s window that goes away by itself.
    package static func showToast(over parent: WebView?, text: String, duration: Duration) {
        NativeDialogs.showToast(over: parent, text: text, duration: duration)
    }

    /// A watch on the network status.
    package static func networkStatus() -> NetworkStatus { NetworkStatus(NetworkMonitor()) }
}

/// Whether a network is available, and a callback on each change (`GNetworkMonitor`).
@EngineActor
package final class NetworkStatus {
    package typealias Connectivity = NetworkMonitor.Connectivity
    private let monitor: NetworkMonitor

    init(_ monitor: NetworkMonitor) { self.monitor = monitor }

    package var connectivity: Connectivity { monitor.connectivity }

    /// Calls `body` with the new availability on every change; replaces an earlier one.
    package func onChange(_ body: @escaping @EngineActor (Bool) -> Void) { monitor.onChange(body) }

    func stop() { monitor.stop() }
}
