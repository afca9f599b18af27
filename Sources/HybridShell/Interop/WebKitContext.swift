internal import CWebKitGTK
import Foundation

/// The `WebKitWebContext` (and its website data manager) shared by views.
///
/// It is never released: WebKit's own teardown of a context at process exit crashes when GTK runs
/// on another thread than the one calling `exit()`, and a process needs only a handful anyway.
@EngineActor
final class WebKitContext {
    let pointer: UnsafeMutablePointer<WebKitWebContext>

    init(dataDirectory: String?) {
        if let dataDirectory {
            let manager = hs_website_data_manager_new(dataDirectory, dataDirectory + "/cache")!
            pointer = webkit_web_context_new_with_website_data_manager(manager)
            let cookies = webkit_website_data_manager_get_cookie_manager(manager)
            webkit_cookie_manager_set_persistent_storage(
                cookies, dataDirectory + "/cookies.sqlite", WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE)
            g_object_unref(manager)
        } else {
            pointer = webkit_web_context_new_ephemeral()
        }
        webkit_web_context_set_cache_model(pointer, WEBKIT_CACHE_MODEL_WEB_BROWSER)
    }

    nonisolated static var engineVersion: String {
        "\(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version())"
    }
}
