import HybridShellCore
import HybridShellWebKit

extension ShellConfiguration {
    /// The custom schemes the shell's context will serve (for ``WebRoute/customSchemes``).
    public var customSchemes: [String] { dirHandlers.map(\.scheme) }

    /// Registrations for the context's ``WebContextConfiguration/schemes``; fails with a precise
    /// error for a missing directory or a scheme given twice.
    public func schemeRegistrations() throws(ShellError) -> [SchemeRegistration] {
        var registrations: [SchemeRegistration] = []
        for mount in dirHandlers { registrations.append(try mount.registration()) }
        try SchemeRegistration.checkDistinct(registrations)
        return registrations
    }

    /// What a manager builds its context from: ``context`` with `headless` following ``window``
    /// and the directory handlers registered.
    public func contextConfiguration() throws(ShellError) -> WebContextConfiguration {
        var configuration = context
        configuration.headless = !window.isVisible
        configuration.schemes += try schemeRegistrations()
        if let fileShares { configuration.schemes.append(try fileShares.registration()) }
        if let byteStreams { configuration.schemes.append(try byteStreams.registration()) }
        return configuration
    }
}
