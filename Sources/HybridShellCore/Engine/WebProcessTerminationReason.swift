/// Why a web process ended (`WebKitWebProcessTerminationReason`).
public enum WebProcessTerminationReason: String, Sendable, Equatable {
    /// It crashed or was killed (`WEBKIT_WEB_PROCESS_CRASHED`).
    case crashed
    /// It used more memory than allowed (`WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT`).
    case exceededMemoryLimit
    /// ``WebView/terminateWebProcess()`` ended it (`WEBKIT_WEB_PROCESS_TERMINATED_BY_API`).
    case terminatedByAPI
}
