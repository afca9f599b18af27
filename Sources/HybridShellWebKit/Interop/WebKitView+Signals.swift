internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    func connectViewSignals() {
        let instance = UnsafeMutableRawPointer(view)
        connections += [
            connectSignal(instance, "load-changed", signalCallback(enumSignalTrampoline),
                          { [weak self] event in self?.loadChanged(event) } as EnumSignal),
            connectSignal(instance, "load-failed", signalCallback(loadFailedSignalTrampoline),
                          { [weak self] _, uri, error in
                              self?.loadFailed(uri: borrowCString(uri) ?? "", error: error)
                              return true  // no WebKit error page: the owner shows what it wants
                          } as LoadFailedSignal),
            connectSignal(instance, "load-failed-with-tls-errors", signalCallback(tlsFailedSignalTrampoline),
                          { [weak self] uri, flags in
                              self?.tlsFailed(uri: borrowCString(uri) ?? "", flags: flags)
                              return true
                          } as TLSFailedSignal),
            connectSignal(instance, "notify::title", signalCallback(pointerSignalTrampoline),
                          { [weak self] _ in
                              guard let self else { return }
                              self.onEvent(.titleChanged(self.title ?? ""))
                          } as PointerSignal),
            connectSignal(instance, "notify::estimated-load-progress", signalCallback(pointerSignalTrampoline),
                          { [weak self] _ in
                              guard let self else { return }
                              self.onEvent(.progressChanged(self.estimatedProgress))
                          } as PointerSignal),
            connectSignal(instance, "notify::is-web-process-responsive", signalCallback(pointerSignalTrampoline),
                          { [weak self] _ in
                              guard let self else { return }
                              self.onEvent(.responsivenessChanged(isResponsive: self.isWebProcessResponsive))
                          } as PointerSignal),
            connectSignal(instance, "web-process-terminated", signalCallback(enumSignalTrampoline),
                          { [weak self] reason in self?.webProcessTerminated(reason) } as EnumSignal),
            connectSignal(instance, "decide-policy", signalCallback(pointerEnumPredicateSignalTrampoline),
                          { [weak self] decision, type in
                              self?.decidePolicy(decision, type: type) ?? false
                          } as PointerEnumPredicateSignal),
            connectSignal(instance, "script-dialog", signalCallback(pointerPredicateSignalTrampoline),
                          { [weak self] dialog in self?.scriptDialog(dialog) ?? false } as PointerPredicateSignal),
            connectSignal(instance, "create", signalCallback(pointerFactorySignalTrampoline),
                          { [weak self] action in self?.create(action) } as PointerFactorySignal),
            connectSignal(instance, "close", signalCallback(voidSignalTrampoline),
                          { [weak self] in self?.onEvent(.closeRequested) } as VoidSignal),
        ]
    }

    private func loadChanged(_ raw: UInt32) {
        let url = uri ?? ""
        switch WebKitLoadEvent(rawValue: raw) {
        case WEBKIT_LOAD_STARTED:
            loadFailedSinceStart = false
            requestedURL = url
            onEvent(.loadStarted(url: url))
        case WEBKIT_LOAD_REDIRECTED:
            onEvent(.loadRedirected(url: url))
        case WEBKIT_LOAD_COMMITTED:
            // WebKit answers a blocked port (http://host:9/ and the like) by committing about:blank
            // without any error; say so instead of pretending the page loaded. A page that went to
            // about:blank itself did load what it asked for (WebKit reports its start under the old URL).
            if url == "about:blank", !requestedURL.isEmpty, !requestedURL.hasPrefix("about:"), lastAllowedNavigation != "about:blank" {
                loadFailedSinceStart = true
                onEvent(.loadFailed(LoadError(url: requestedURL, kind: .unsupported, domain: "HybridShell", code: 0,
                                              message: "WebKit refused to load \(requestedURL) (a blocked port?)")))
            }
            onEvent(.loadCommitted(url: url))
        case WEBKIT_LOAD_FINISHED:
            onEvent(.loadFinished(url: url.isEmpty ? requestedURL : url, succeeded: !loadFailedSinceStart))
        default:
            break
        }
    }

    private func loadFailed(uri: String, error: UnsafeMutablePointer<GError>?) {
        loadFailedSinceStart = true
        guard let error else {
            onEvent(.loadFailed(LoadError(url: uri, kind: .other, domain: "", code: 0, message: "load failed")))
            return
        }
        let details = GLibError(borrowing: error)
        onEvent(.loadFailed(LoadError(url: uri, kind: WebKitView.loadErrorKind(details), domain: details.domain,
                                      code: details.code, message: details.message)))
    }

    private func tlsFailed(uri: String, flags: UInt32) {
        loadFailedSinceStart = true
        onEvent(.loadFailed(LoadError(url: uri, kind: .tls, domain: "GTlsCertificateFlags", code: Int(flags),
                                      message: "the server's TLS certificate is not trusted")))
    }

    static func loadErrorKind(_ error: GLibError) -> LoadError.Kind {
        let network = String(cString: g_quark_to_string(hs_webkit_network_error()))
        let policy = String(cString: g_quark_to_string(hs_webkit_policy_error()))
        switch error.domain {
        case network:
            switch Int32(error.code) {
            case Int32(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue): return .cancelled
            case Int32(WEBKIT_NETWORK_ERROR_UNKNOWN_PROTOCOL.rawValue): return .unsupported
            default: return .network
            }
        case policy:
            switch Int32(error.code) {
            case Int32(WEBKIT_POLICY_ERROR_CANNOT_SHOW_MIME_TYPE.rawValue),
                 Int32(WEBKIT_POLICY_ERROR_CANNOT_SHOW_URI.rawValue),
                 Int32(WEBKIT_POLICY_ERROR_CANNOT_USE_RESTRICTED_PORT.rawValue):
                return .unsupported
            default: return .policy
            }
        default:
            if error.isCancellation { return .cancelled }
            // GIO errors come from file: loads (no such file, permission denied).
            return error.domain == String(cString: g_quark_to_string(hs_io_error())) ? .network : .other
        }
    }

    private func webProcessTerminated(_ raw: UInt32) {
        let reason: WebProcessTerminationReason
        switch WebKitWebProcessTerminationReason(rawValue: raw) {
        case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: reason = .exceededMemoryLimit
        case WEBKIT_WEB_PROCESS_TERMINATED_BY_API: reason = .terminatedByAPI
        default: reason = .crashed
        }
        onEvent(.webProcessTerminated(reason))
    }
}
