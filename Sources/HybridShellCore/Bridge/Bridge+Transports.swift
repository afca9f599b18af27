extension Bridge {
    /// The two legacy transports that feed the same handlers: dsbridge's `prompt()` and
    /// WebViewJavascriptBridge's URL ping.
    func installDialectTransports(on view: any BridgeEngine) {
        view.addDialogInterceptor { [weak self] dialog, responder in self?.dsbridgePrompt(dialog, responder) ?? false }
        view.addDialogInterceptor { [weak self] dialog, responder in self?.nonBlockingDialog(dialog, responder) ?? false }
        view.addNavigationDecider { [weak self] action in self?.wvjbNavigation(action) }
    }
}
