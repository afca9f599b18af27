internal import CWebKitGTK
import Foundation
import HybridShellCore

/// The `WebKitWebContext` (and its website data manager) shared by views.
///
/// It is never released: WebKit's own teardown of a context at process exit crashes when GTK runs
/// on another thread than the one calling `exit()`, and a process needs only a handful anyway.
@EngineActor
final class WebKitContext {
    let pointer: UnsafeMutablePointer<WebKitWebContext>

    /// - Parameter memoryLimitMiB: when set, WebKit kills a web process whose memory passes it
    ///   (`WebKitMemoryPressureSettings` with a kill threshold; without one it never kills).
    init(dataDirectory: String?, memoryLimitMiB: Int? = nil) {
        let manager: UnsafeMutablePointer<WebKitWebsiteDataManager>
        if let dataDirectory {
            manager = hs_website_data_manager_new(dataDirectory, dataDirectory + "/cache")!
            let cookies = webkit_website_data_manager_get_cookie_manager(manager)
            webkit_cookie_manager_set_persistent_storage(
                cookies, dataDirectory + "/cookies.sqlite", WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE)
        } else {
            manager = webkit_website_data_manager_new_ephemeral()
        }
        let memory = webkit_memory_pressure_settings_new()!
        if let memoryLimitMiB {
            webkit_memory_pressure_settings_set_memory_limit(memory, guint(memoryLimitMiB))
            // Each setter checks against the current other threshold (defaults: conservative 0.33,
            // strict 0.5) and ignores a value that would cross it, with a CRITICAL: raise strict first.
            webkit_memory_pressure_settings_set_strict_threshold(memory, 0.8)
            webkit_memory_pressure_settings_set_conservative_threshold(memory, 0.5)
            webkit_memory_pressure_settings_set_kill_threshold(memory, 1.0)
            webkit_memory_pressure_settings_set_poll_interval(memory, 1.0)
        }
        pointer = hs_web_context_new(manager, memory)
        webkit_memory_pressure_settings_free(memory)
        g_object_unref(manager)
        webkit_web_context_set_cache_model(pointer, WEBKIT_CACHE_MODEL_WEB_BROWSER)
    }

    /// Removes cookies, local storage, IndexedDB, caches… of every site
    /// (`webkit_website_data_manager_clear`); with `keepingMemoryCache`, all but the web
    /// processes' in-memory resource cache.
    func clearWebsiteData(keepingMemoryCache: Bool = false) async {
        let manager = webkit_web_context_get_website_data_manager(pointer)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let completion = AsyncCallCompletion { object, result in
                _ = webkit_website_data_manager_clear_finish(manager, result, nil)
                continuation.resume()
            }
            let all = WEBKIT_WEBSITE_DATA_ALL.rawValue
            let types = WebKitWebsiteDataTypes(rawValue: keepingMemoryCache ? all & ~WEBKIT_WEBSITE_DATA_MEMORY_CACHE.rawValue : all)
            webkit_website_data_manager_clear(manager, types, 0, nil, asyncCallReady, completion.retainedUserData())
        }
    }

    nonisolated static var engineVersion: String {
        "\(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version())"
    }
}
