#include <webkit2/webkit-web-extension.h>
#include <string.h>
#include "HybridShellPathMap.h"

/* Online URL -> app://<appid>/<file>; read once at start, never changed (one thread reads it). */
static GHashTable *path_map;

static gboolean on_send_request(WebKitWebPage *page, WebKitURIRequest *request, WebKitURIResponse *redirected, gpointer data)
{
    const char *uri = webkit_uri_request_get_uri(request);
    if (uri == NULL || path_map == NULL)
        return FALSE;
    const char *target = g_hash_table_lookup(path_map, uri);
    if (target != NULL)
        webkit_uri_request_set_uri(request, target);
    return FALSE; /* FALSE: send it (to the rewritten URL). */
}

static void on_page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data)
{
    g_signal_connect(page, "send-request", G_CALLBACK(on_send_request), NULL);
}

G_MODULE_EXPORT void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension, const GVariant *user_data)
{
    GVariant *map = (GVariant *)user_data;
    path_map = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    /* Anything but a{ss} (or a target outside app: and the loopback media relay) is ignored: no
       rewriting rather than a crash. */
    if (map != NULL && g_variant_is_of_type(map, G_VARIANT_TYPE("a{ss}"))) {
        GVariantIter iter;
        const char *key, *value;
        g_variant_iter_init(&iter, map);
        while (g_variant_iter_next(&iter, "{&s&s}", &key, &value)) {
            if (strncmp(value, "app://", 6) == 0 || strncmp(value, "http://127.0.0.1:", 17) == 0)
                g_hash_table_replace(path_map, g_strdup(key), g_strdup(value));
        }
    }
    g_signal_connect(extension, "page-created", G_CALLBACK(on_page_created), NULL);
}
