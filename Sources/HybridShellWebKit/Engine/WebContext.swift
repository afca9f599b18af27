import Foundation
import HybridShellCore

/// The engine state views share: cookies, caches, local storage and their processes' settings
/// (`WebKitWebContext` with its `WebKitWebsiteDataManager`).
///
/// A context lives as long as the process (see `WebKitContext` for why).
@EngineActor
public final class WebContext {
    /// Where the context keeps cookies, storage and caches (``WebContextConfiguration/Storage``).
    public typealias Storage = WebContextConfiguration.Storage

    public let configuration: WebContextConfiguration
    public var storage: Storage { configuration.storage }
    let native: WebKitContext
    /// Plays the media of schemes registered with ``SchemeRegistration/mediaHosts``; its page
    /// scripts are added to every view of the context. Nil when no scheme names media hosts (or
    /// its listener could not start: logged, and such media then does not play).
    public private(set) var mediaRelay: SchemeMediaRelay?

    /// Creates a context (`webkit_web_context_new_with_website_data_manager`).
    public init(configuration: WebContextConfiguration) throws(ShellError) {
        if let problem = MainLoop.displayError { throw .noDisplay(problem) }
        if configuration.headless { WebKitEnvironment.applyHeadlessDefaults() }
        let memoryLimitMiB = configuration.memoryLimitMiB
        try SchemeRegistration.checkDistinct(configuration.schemes)
        switch configuration.storage {
        case .ephemeral:
            native = WebKitContext(dataDirectory: nil, memoryLimitMiB: memoryLimitMiB)
        case .persistent(let directory):
            let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
            do {
                try FileManager.default.createDirectory(atPath: absolute, withIntermediateDirectories: true)
            } catch {
                throw .invalidArgument("cannot create the data directory \(absolute): \(error.localizedDescription)")
            }
            guard FileManager.default.isWritableFile(atPath: absolute) else {
                throw .invalidArgument("the data directory \(absolute) is not writable")
            }
            native = WebKitContext(dataDirectory: absolute, memoryLimitMiB: memoryLimitMiB)
        }
        self.configuration = configuration
        let media = configuration.schemes.filter { !$0.mediaHosts.isEmpty }
        if !media.isEmpty {
            do { mediaRelay = try SchemeMediaRelay(registrations: media) } catch {
                SchemeRegistration.logger.error("media relay: \(error); <video>/<audio> of \(media.map(\.scheme)) will not play")
            }
        }
        if let extensions = configuration.webExtensions {
            native.loadWebExtensions(directory: extensions.directory, data: mediaRelay?.relayingMedia(of: extensions.data) ?? extensions.data)
        }
        // Request interception: WebKit wants schemes before any view of the context exists.
        for registration in configuration.schemes { native.register(registration, logger: SchemeRegistration.logger) }
    }

    /// ``init(configuration:)`` with these settings.
    public convenience init(storage: Storage = .ephemeral, headless: Bool = true, memoryLimitMiB: Int? = nil,
                            schemes: [SchemeRegistration] = []) throws(ShellError) {
        try self.init(configuration: WebContextConfiguration(storage: storage, headless: headless, memoryLimitMiB: memoryLimitMiB,
                                                             schemes: schemes))
    }

    /// The custom schemes registered on this context.
    public var schemes: [String] { configuration.schemes.map(\.scheme) }

    /// Removes every site's cookies, storage and caches (`webkit_website_data_manager_clear`).
    /// With `keepingMemoryCache`, the web processes' in-memory resource cache stays (what it
    /// holds still obeys HTTP caching rules; dropping it makes every page re-read and re-compile
    /// its resources).
    public func clearWebsiteData(keepingMemoryCache: Bool = false) async {
        await native.clearWebsiteData(keepingMemoryCache: keepingMemoryCache)
    }

    private static var sharedContext: WebContext?

    /// An ephemeral, headless context created on first use.
    public static func shared() throws(ShellError) -> WebContext {
        if let sharedContext { return sharedContext }
        let context = try WebContext()
        sharedContext = context
        return context
    }

    /// WebKitGTK's version, e.g. `2.50.6`.
    public nonisolated static var engineVersion: String { WebKitContext.engineVersion }
}
