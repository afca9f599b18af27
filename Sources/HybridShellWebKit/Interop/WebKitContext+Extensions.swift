internal import CWebKitGTK
import HybridShellCore

extension WebKitContext {
    /// Loads the web-process extensions in `directory` into every web process of this context,
    /// handing them `data` as an `a{ss}` GVariant (`webkit_web_context_set_web_extensions_directory`
    /// + `webkit_web_context_set_web_extensions_initialization_user_data`). Before any view exists.
    func loadWebExtensions(directory: String, data: [String: String]) {
        webkit_web_context_set_web_extensions_directory(pointer, directory)
        let entryType = g_variant_type_new("{ss}")
        defer { g_variant_type_free(entryType) }
        var entries: [OpaquePointer?] = data.sorted { $0.key < $1.key }.map { key, value in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_string(value))
        }
        let array = entries.withUnsafeMutableBufferPointer { buffer in
            g_variant_new_array(entryType, buffer.baseAddress, gsize(buffer.count))
        }
        // The context sinks the floating reference.
        webkit_web_context_set_web_extensions_initialization_user_data(pointer, array)
    }
}
