/// A script WebKit runs in every matching document (`WebKitUserScript`).
public struct UserScript: Sendable, Equatable {
    public enum InjectionTime: Sendable, Equatable {
        /// Before the page's own scripts (`WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START`).
        case documentStart
        /// After the document is parsed (`WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END`).
        case documentEnd
    }

    public enum Frames: Sendable, Equatable {
        case topFrameOnly
        case allFrames
    }

    public var source: String
    public var injectionTime: InjectionTime
    public var frames: Frames
    public var world: ScriptWorld
    /// URL patterns (`scheme://host/path*`) the script is limited to; empty means every URL.
    /// WebKit ignores ports in these patterns.
    public var allowList: [String]
    public var blockList: [String]

    public init(source: String, injectionTime: InjectionTime = .documentStart, frames: Frames = .topFrameOnly,
                world: ScriptWorld = .page, allowList: [String] = [], blockList: [String] = []) {
        self.source = source
        self.injectionTime = injectionTime
        self.frames = frames
        self.world = world
        self.allowList = allowList
        self.blockList = blockList
    }
}

/// Where a script runs: with the page's own scripts, or in an isolated world that shares the DOM
/// but none of the page's JavaScript objects (`WebKitScriptWorld`).
public enum ScriptWorld: Sendable, Hashable {
    case page
    case isolated(String)

    package var name: String? {
        switch self {
        case .page: nil
        case .isolated(let name): name
        }
    }
}
