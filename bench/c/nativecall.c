/* nativecall: the C baseline for native -> page calls.
 *
 * Usage: nativecall [N]
 * Loads a page that defines `pageEcho(v)`, then calls it N times (default 10000) serially with
 * webkit_web_view_call_async_javascript_function("return pageEcho(v)", {v: <~30-byte JSON text>})
 * and waits for each result, like `hybrid-bench bridge` does through HybridShell's bridge.
 * Prints {"nativeCall_us": <mean µs per call>}.
 */
#include <webkit2/webkit2.h>
#include <stdio.h>
#include <stdlib.h>

static WebKitWebView *view;
static int total = 10000, done = -200;  /* 200 warm-up calls first */
static gint64 started;

static void call_next(void);

static void finished(GObject *source, GAsyncResult *result, gpointer user_data) {
    GError *error = NULL;
    JSCValue *value = webkit_web_view_call_async_javascript_function_finish(view, result, &error);
    if (!value) { fprintf(stderr, "nativecall: %s\n", error->message); exit(1); }
    g_object_unref(value);
    if (++done == 0) started = g_get_monotonic_time();
    if (done == total) {
        printf("{\"nativeCall_us\":%.2f}\n", (double)(g_get_monotonic_time() - started) / total);
        exit(0);
    }
    call_next();
}

static void call_next(void) {
    char text[64];
    snprintf(text, sizeof text, "{\"id\":%d,\"m\":\"echo\",\"a\":[1]}", done);
    GVariantDict dict;
    g_variant_dict_init(&dict, NULL);
    g_variant_dict_insert(&dict, "v", "s", text);
    webkit_web_view_call_async_javascript_function(view, "return pageEcho(v);", -1, g_variant_dict_end(&dict),
                                                   NULL, NULL, NULL, finished, NULL);
}

static void load_changed(WebKitWebView *web_view, WebKitLoadEvent event, gpointer user_data) {
    if (event == WEBKIT_LOAD_FINISHED) call_next();
}

int main(int argc, char **argv) {
    gtk_init(&argc, &argv);
    if (argc > 1) total = atoi(argv[1]);
    WebKitWebContext *context = webkit_web_context_new();
    view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, NULL));
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
    gtk_widget_show_all(window);
    g_signal_connect(view, "load-changed", G_CALLBACK(load_changed), NULL);
    webkit_web_view_load_html(view, "<script>window.pageEcho = v => v;</script>", "http://localhost/");
    gtk_main();
    return 0;
}
