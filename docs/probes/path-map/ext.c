#include <webkit2/webkit-web-extension.h>
#include <string.h>
static char *prefix; static char *target;
static gboolean on_send(WebKitWebPage *page, WebKitURIRequest *req, WebKitURIResponse *redir, gpointer d) {
  const char *uri = webkit_uri_request_get_uri(req);
  if (prefix && g_str_has_prefix(uri, prefix) && strlen(uri) > strlen(prefix) && g_str_has_suffix(uri, ".js")) {
    char *n = g_strconcat(target, uri + strlen(prefix), NULL);
    webkit_uri_request_set_uri(req, n); g_free(n);
  }
  return FALSE;
}
static void on_page(WebKitWebExtension *e, WebKitWebPage *page, gpointer d) {
  g_signal_connect(page, "send-request", G_CALLBACK(on_send), NULL);
}
G_MODULE_EXPORT void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *e, const GVariant *data) {
  g_variant_get((GVariant *)data, "(ss)", &prefix, &target);
  g_signal_connect(e, "page-created", G_CALLBACK(on_page), NULL);
}
