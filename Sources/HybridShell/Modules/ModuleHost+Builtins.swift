import Foundation
import HybridShellCore
import HybridShellWebKit

extension ModuleHost {
    /// How ``builtins(_:manager:openedURL:dataDirectory:options:)`` sets the modules up beyond the
    /// configuration: page tests and the kiosk differ from `--url` runs here.
    public struct BuiltinOptions: Sendable {
        /// Deterministic modules (private clipboard, configured file choice, auto-answered modals)
        /// even with a window; nil follows the manager's window (headless without one).
        public var headless: Bool?
        /// Modules not registered although enabled (page tests have no page stack to navigate).
        public var excluded: Set<BuiltinModule> = []
        /// Whose storage a call sees (default: its origin); see ``StorageModule/module(path:quota:partition:)``.
        public var storagePartition: (@Sendable (BridgeCall) -> String)?
        /// Whose headless clipboard a call sees (default: one for the run).
        public var clipboardPartition: (@Sendable (BridgeCall) -> String)?
        /// Whether `files.choose` may show GTK's chooser when there is a window; the kiosk says no
        /// (browsing the file system would escape its lock-down): the configured choice answers.
        /// The same holds for `print.page`'s dialog (DENIED there: only `printers` are printed to).
        public var nativeFileChooser = true
        /// Whether only the visible page of the manager's stack may use the clipboard (see
        /// ``ClipboardVisibility``); page tests, whose views are not on a stack, say no.
        public var clipboardNeedsVisiblePage = true
        /// The update manager the `updates` module shows pages (``PackageRun/updates``); without
        /// one, its handlers answer that no update URL is configured.
        public var updates: PackageUpdates?

        public init(headless: Bool? = nil, excluded: Set<BuiltinModule> = [], storagePartition: (@Sendable (BridgeCall) -> String)? = nil,
                    clipboardPartition: (@Sendable (BridgeCall) -> String)? = nil, nativeFileChooser: Bool = true,
                    clipboardNeedsVisiblePage: Bool = true) {
            self.clipboardPartition = clipboardPartition
            self.clipboardNeedsVisiblePage = clipboardNeedsVisiblePage
            self.headless = headless
            self.excluded = excluded
            self.storagePartition = storagePartition
            self.nativeFileChooser = nativeFileChooser
        }
    }

    /// The built-in modules `configuration` enables, for pages opened from `openedURL` (its origin
    /// is trusted). Storage lives in `dataDirectory`, or in memory when nil (ephemeral runs).
    /// Large http bodies and chosen files reach pages through the manager's ``PageManager/fileShares``.
    public static func builtins(_ configuration: ModuleConfiguration, manager: PageManager, openedURL: String,
                                dataDirectory: String?, options: BuiltinOptions = BuiltinOptions()) throws(ShellError) -> ModuleHost {
        let trusted = WebOrigin.of(openedURL).flatMap { try? OriginPattern(parsing: $0) }
        let host = ModuleHost(manager: manager, trusted: trusted.map { [$0] } ?? [], capabilities: configuration.capabilities)
        let headless = options.headless ?? !manager.configuration.window.isVisible
        let shares = manager.fileShares
        host.downloads = shares.map { ModuleDownloads(shares: $0) }
        for module in configuration.enabled.sorted() where !options.excluded.contains(module) {
            switch module {
            case .storage:
                let path = dataDirectory.map { ($0 as NSString).appendingPathComponent(StorageModule.fileName) }
                host.register(StorageModule.module(path: path, quota: configuration.storageQuota, partition: options.storagePartition))
            case .system:
                host.register(SystemModule.module(host: host, override: configuration.networkOverride))
            case .navigation:
                host.register(NavigationModule.module(host: host))
            case .clipboard:
                host.register(ClipboardModule.module(headless: headless, initialText: configuration.clipboardText,
                                                     partition: options.clipboardPartition,
                                                     visibility: options.clipboardNeedsVisiblePage ? host.clipboardRefusal : nil))
            case .ui:
                host.register(UIModule.module(host: host, headless: headless, modalConfirms: configuration.modalConfirms))
            case .http:
                host.register(HTTPModule.module(allowed: configuration.httpAllow, downloads: host.downloads,
                                                inlineLimit: configuration.httpInlineLimit, maxBytes: configuration.httpMaxBytes))
            case .updates:
                host.register(UpdatesModule.module(host: host, updates: options.updates))
            case .files:
                let directory = dataDirectory.map { ($0 as NSString).appendingPathComponent("files") }
                    ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("hybridshell-files-\(ProcessInfo.processInfo.processIdentifier)")
                host.register(FilesModule.module(headless: headless || !options.nativeFileChooser, choice: configuration.fileChoice, directory: directory, shares: shares))
            case .notification:
                // Only page tests (an explicit headless) answer privately: a run without a window still has a desktop.
                host.register(NotificationModule.module(host: host, headless: options.headless == true))
            case .print:
                host.register(PrintModule.module(host: host, simulatesPrinters: options.headless == true, hasWindow: !headless,
                                                 policy: PrintPolicy(directories: configuration.printDirs, printers: configuration.printers,
                                                                     dialogAllowed: options.nativeFileChooser)))
            }
        }
        if !configuration.enabled.isEmpty {
            manager.userScripts.append(UserScript(source: ModuleScripts.wxFacade, injectionTime: .documentStart, frames: .topFrameOnly))
        }
        return host
    }
}
