#include <webkit2/webkit2.h>
static void app_req(WebKitURISchemeRequest *r, gpointer d) {
  const char *js = "window.mapped = 'from-package';";
  GInputStream *s = g_memory_input_stream_new_from_data(js, -1, NULL);
  webkit_uri_scheme_request_finish(r, s, -1, "text/javascript"); g_object_unref(s);
}
static void title(GObject *o, GParamSpec *p, gpointer d) {
  const char *t = webkit_web_view_get_title(WEBKIT_WEB_VIEW(o));
  if (t && g_str_has_prefix(t, "R:")) { printf("%s\n", t); gtk_main_quit(); }
}
static gboolean timeout(gpointer d) { printf("TIMEOUT\n"); gtk_main_quit(); return FALSE; }
int main(int argc, char **argv) {
  gtk_init(&argc, &argv);
  WebKitWebContext *ctx = webkit_web_context_new();
  webkit_web_context_set_web_extensions_directory(ctx, argv[1]);
  webkit_web_context_set_web_extensions_initialization_user_data(ctx, g_variant_new("(ss)", argv[2], "app://demo/"));
  webkit_web_context_register_uri_scheme(ctx, "app", app_req, NULL, NULL);
  webkit_security_manager_register_uri_scheme_as_secure(webkit_web_context_get_security_manager(ctx), "app");
  webkit_security_manager_register_uri_scheme_as_cors_enabled(webkit_web_context_get_security_manager(ctx), "app");
  GtkWidget *w = gtk_offscreen_window_new();
  GtkWidget *v = webkit_web_view_new_with_context(ctx);
  gtk_container_add(GTK_CONTAINER(w), v); gtk_widget_show_all(w);
  g_signal_connect(v, "notify::title", G_CALLBACK(title), NULL);
  webkit_web_view_load_uri(WEBKIT_WEB_VIEW(v), argv[3]);
  g_timeout_add_seconds(20, timeout, NULL);
  gtk_main(); return 0;
}
