/* roundtrip.c: C baseline for `hybrid-bench roundtrip PAGE` (bridge message roundtrips).
 *
 * Usage: roundtrip URL-OR-PATH        e.g. roundtrip 'pages/bench/roundtrip.html?scenarios=serial'
 *
 * A shown toplevel GtkWindow holding a WebKitWebView with its own web context, and three script
 * message handlers in the page's main world (the contract is at the top of roundtrip.html):
 *   bench      with reply: replies with the same string (webkit_script_message_reply_return_value)
 *   benchEval  plain: answers by calling the page's benchResolve(value), value a typed argument
 *              (webkit_web_view_call_async_javascript_function)
 *   benchdone  plain: the page's result JSON text; printed as one line on stdout, exit 0.
 * A result carrying an "error" key goes to stderr with exit 1; load-failed exits 2; a dead web
 * process or no result within 600 s exits 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webkit2/webkit2.h>

static char *to_uri(const char *arg)
{
    if (g_uri_peek_scheme(arg))
        return g_strdup(arg);
    const char *query = strchr(arg, '?');
    g_autofree char *path = query ? g_strndup(arg, query - arg) : g_strdup(arg);
    g_autoptr(GFile) file = g_file_new_for_commandline_arg(path);
    g_autofree char *uri = g_file_get_uri(file);
    return g_strconcat(uri, query ? query : "", NULL);
}

static gboolean on_bench(WebKitUserContentManager *manager, JSCValue *message,
                         WebKitScriptMessageReply *reply, gpointer data)
{
    g_autofree char *text = jsc_value_to_string(message);
    g_autoptr(JSCValue) answer = jsc_value_new_string(jsc_value_get_context(message), text);
    webkit_script_message_reply_return_value(reply, answer);
    return TRUE;
}

static void on_resolved(GObject *view, GAsyncResult *result, gpointer data)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(JSCValue) value =
        webkit_web_view_call_async_javascript_function_finish(WEBKIT_WEB_VIEW(view), result, &error);
    if (!value) {
        fprintf(stderr, "roundtrip: benchResolve failed: %s\n", error->message);
        exit(1);
    }
}

static void on_bench_eval(WebKitUserContentManager *manager, WebKitJavascriptResult *message,
                          gpointer view)
{
    char *text = jsc_value_to_string(webkit_javascript_result_get_js_value(message));
    GVariantBuilder args;
    g_variant_builder_init(&args, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&args, "{sv}", "value", g_variant_new_take_string(text));
    webkit_web_view_call_async_javascript_function(view, "benchResolve(value);", -1,
                                                   g_variant_builder_end(&args), NULL, NULL, NULL,
                                                   on_resolved, NULL);
}

static void on_bench_done(WebKitUserContentManager *manager, WebKitJavascriptResult *message,
                          gpointer data)
{
    JSCValue *value = webkit_javascript_result_get_js_value(message);
    g_autofree char *text = jsc_value_to_string(value);
    g_autoptr(JSCValue) result = jsc_value_new_from_json(jsc_value_get_context(value), text);
    if (!result || !jsc_value_is_object(result)) {
        fprintf(stderr, "roundtrip: benchdone sent no JSON object: %.200s\n", text);
        exit(1);
    }
    if (jsc_value_object_has_property(result, "error")) {
        fprintf(stderr, "roundtrip: page failed: %s\n", text);
        exit(1);
    }
    printf("%s\n", text);
    exit(0);
}

static gboolean on_load_failed(WebKitWebView *view, WebKitLoadEvent event, char *uri,
                               GError *error, gpointer data)
{
    fprintf(stderr, "roundtrip: loading %s failed: %s\n", uri, error->message);
    exit(2);
}

static void on_web_process_terminated(WebKitWebView *view,
                                      WebKitWebProcessTerminationReason reason, gpointer data)
{
    fprintf(stderr, "roundtrip: web process terminated (reason %d)\n", reason);
    exit(3);
}

static gboolean on_timeout(gpointer data)
{
    fprintf(stderr, "roundtrip: no result within 600 s\n");
    exit(3);
}

int main(int argc, char **argv)
{
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "roundtrip: cannot open a display (is DISPLAY set?)\n");
        return 1;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: roundtrip URL-OR-PATH\n");
        return 1;
    }
    g_autofree char *uri = to_uri(argv[1]);

    WebKitWebContext *context = webkit_web_context_new();
    GtkWidget *view = webkit_web_view_new_with_context(context);
    WebKitUserContentManager *manager =
        webkit_web_view_get_user_content_manager(WEBKIT_WEB_VIEW(view));
    if (!webkit_user_content_manager_register_script_message_handler_with_reply(manager, "bench", NULL)
        || !webkit_user_content_manager_register_script_message_handler(manager, "benchEval")
        || !webkit_user_content_manager_register_script_message_handler(manager, "benchdone")) {
        fprintf(stderr, "roundtrip: cannot register the script message handlers\n");
        return 1;
    }
    g_signal_connect(manager, "script-message-with-reply-received::bench", G_CALLBACK(on_bench), NULL);
    g_signal_connect(manager, "script-message-received::benchEval", G_CALLBACK(on_bench_eval), view);
    g_signal_connect(manager, "script-message-received::benchdone", G_CALLBACK(on_bench_done), NULL);

    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    gtk_container_add(GTK_CONTAINER(window), view);
    g_signal_connect(view, "load-failed", G_CALLBACK(on_load_failed), NULL);
    g_signal_connect(view, "web-process-terminated", G_CALLBACK(on_web_process_terminated), NULL);
    gtk_widget_show_all(window);

    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
    g_timeout_add_seconds(600, on_timeout, NULL);
    gtk_main();
    return 0;
}
