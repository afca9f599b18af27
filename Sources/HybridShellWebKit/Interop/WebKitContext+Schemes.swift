internal import CWebKitGTK
import Logging
import HybridShellCore

extension WebKitContext {
    /// Registers `registration.scheme` with its security options
    /// (`webkit_web_context_register_uri_scheme`, `webkit_security_manager_register_uri_scheme_as_*`).
    /// GLib owns the box holding the registration: it is released by the destroy notify.
    func register(_ registration: SchemeRegistration, logger: Logger) {
        let security = webkit_web_context_get_security_manager(pointer)
        if registration.security.secure { webkit_security_manager_register_uri_scheme_as_secure(security, registration.scheme) }
        if registration.security.corsOrigins != nil { webkit_security_manager_register_uri_scheme_as_cors_enabled(security, registration.scheme) }
        if registration.security.local { webkit_security_manager_register_uri_scheme_as_local(security, registration.scheme) }
        if registration.security.displayIsolated {
            webkit_security_manager_register_uri_scheme_as_display_isolated(security, registration.scheme)
        }
        let box = Unmanaged.passRetained(SchemeRegistrationBox(registration, logger: logger)).toOpaque()
        webkit_web_context_register_uri_scheme(pointer, registration.scheme, schemeRequestReceived, box, releaseSchemeRegistration)
    }
}

/// What GLib holds for a registered scheme.
final class SchemeRegistrationBox {
    let registration: SchemeRegistration
    let logger: Logger

    init(_ registration: SchemeRegistration, logger: Logger) {
        self.registration = registration
        self.logger = logger
    }
}

private let schemeRequestReceived: WebKitURISchemeRequestCallback = { request, data in
    guard let incoming = request, let data else { return }
    nonisolated(unsafe) let box = Unmanaged<SchemeRegistrationBox>.fromOpaque(data).takeUnretainedValue()
    nonisolated(unsafe) let request = incoming
    EngineActor.assumeIsolated {
        WebKitSchemeRequest(request, box: box).start()
    }
}

private let releaseSchemeRegistration: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<SchemeRegistrationBox>.fromOpaque(data).release()
}
