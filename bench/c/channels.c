/* channels.c: what each way for a page to call native and wait for the answer costs WebKitGTK
 * itself, measured in one process so they compare (the floor under any bridge built on them).
 *
 * Usage: channels [N]        (N serial calls per channel, default 3000, after 200 untimed ones)
 *
 * A page served from the custom scheme `app` sends a ~30-byte JSON text and checks the echo:
 *   reply_us   await webkit.messageHandlers.bench.postMessage(text): the reply channel
 *              (webkit_script_message_reply_return_value), what c/roundtrip's `serial` times;
 *   prompt_us  prompt('bench', text) answered in the `script-dialog` signal
 *              (webkit_script_dialog_prompt_set_text): a synchronous IPC, as dsbridge.js uses;
 *   xhr_us     a synchronous XMLHttpRequest POST to app://host/call, answered by the scheme's
 *              handler with the request body;
 *   reply2_us  the reply channel again (drift within the run).
 * Prints {"reply_us":…,"prompt_us":…,"xhr_us":…,"reply2_us":…}; a page error or a failed load
 * goes to stderr with exit 1 or 2; no result within 600 s exits 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webkit2/webkit2.h>

static const char *PAGE =
    "<!doctype html><meta charset=utf-8><script>\n"
    "const N = Number(new URLSearchParams(location.search).get('n'));\n"
    "const small = i => JSON.stringify({id: i, m: 'echo', a: [1]});\n"
    "function check(ok) { if (!ok) throw new Error('wrong reply'); }\n"
    "const reply = text => webkit.messageHandlers.bench.postMessage(text);\n"
    "const prompted = text => prompt('bench', text);\n"
    "function xhr(text) {\n"
    "  const request = new XMLHttpRequest();\n"
    "  request.open('POST', 'app://host/call', false);\n"
    "  request.send(text);\n"
    "  return request.responseText;\n"
    "}\n"
    "async function time(call) {\n"
    "  for (let i = 0; i < 200; i++) check(await call(small(i)) === small(i));\n"
    "  const t0 = performance.now();\n"
    "  for (let i = 0; i < N; i++) { const text = small(i); check(await call(text) === text); }\n"
    "  return (performance.now() - t0) * 1000 / N;\n"
    "}\n"
    "(async () => {\n"
    "  const result = {};\n"
    "  try {\n"
    "    result.reply_us = await time(reply);\n"
    "    result.prompt_us = await time(prompted);\n"
    "    result.xhr_us = await time(xhr);\n"
    "    result.reply2_us = await time(reply);\n"
    "  } catch (error) { result.error = String(error); }\n"
    "  webkit.messageHandlers.done.postMessage(JSON.stringify(result));\n"
    "})();\n"
    "</script>";

static gboolean on_bench(WebKitUserContentManager *manager, JSCValue *message,
                         WebKitScriptMessageReply *reply, gpointer data)
{
    g_autofree char *text = jsc_value_to_string(message);
    g_autoptr(JSCValue) answer = jsc_value_new_string(jsc_value_get_context(message), text);
    webkit_script_message_reply_return_value(reply, answer);
    return TRUE;
}

static void on_done(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data)
{
    g_autofree char *text = jsc_value_to_string(webkit_javascript_result_get_js_value(result));
    if (strstr(text, "\"error\"")) {
        fprintf(stderr, "channels: %s\n", text);
        exit(1);
    }
    printf("%s\n", text);
    exit(0);
}

static gboolean on_dialog(WebKitWebView *view, WebKitScriptDialog *dialog, gpointer data)
{
    if (webkit_script_dialog_get_dialog_type(dialog) != WEBKIT_SCRIPT_DIALOG_PROMPT)
        return FALSE;
    webkit_script_dialog_prompt_set_text(dialog, webkit_script_dialog_prompt_get_default_text(dialog));
    return TRUE;
}

static void on_scheme(WebKitURISchemeRequest *request, gpointer data)
{
    if (strcmp(webkit_uri_scheme_request_get_path(request), "/call") != 0) {
        g_autoptr(GInputStream) page = g_memory_input_stream_new_from_data(PAGE, strlen(PAGE), NULL);
        webkit_uri_scheme_request_finish(request, page, strlen(PAGE), "text/html");
        return;
    }
    g_autoptr(GInputStream) body = webkit_uri_scheme_request_get_http_body(request);
    char buffer[4096];
    gsize length = 0;
    if (body)
        g_input_stream_read_all(body, buffer, sizeof buffer, &length, NULL, NULL);
    g_autoptr(GInputStream) answer = g_memory_input_stream_new_from_data(g_memdup2(buffer, length), length, g_free);
    webkit_uri_scheme_request_finish(request, answer, length, "text/plain");
}

static gboolean on_load_failed(WebKitWebView *view, WebKitLoadEvent event, char *uri, GError *error, gpointer data)
{
    fprintf(stderr, "channels: loading %s failed: %s\n", uri, error->message);
    exit(2);
}

static gboolean on_timeout(gpointer data)
{
    fprintf(stderr, "channels: no result within 600 s\n");
    exit(3);
}

int main(int argc, char **argv)
{
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "channels: cannot open a display (is DISPLAY set?)\n");
        return 1;
    }
    int calls = argc > 1 ? atoi(argv[1]) : 3000;
    if (calls < 1) {
        fprintf(stderr, "usage: channels [N]   (N >= 1 calls per channel)\n");
        return 1;
    }
    WebKitWebContext *context = webkit_web_context_new();
    webkit_web_context_register_uri_scheme(context, "app", on_scheme, NULL, NULL);
    webkit_security_manager_register_uri_scheme_as_cors_enabled(webkit_web_context_get_security_manager(context), "app");
    GtkWidget *view = webkit_web_view_new_with_context(context);
    WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager(WEBKIT_WEB_VIEW(view));
    webkit_user_content_manager_register_script_message_handler_with_reply(manager, "bench", NULL);
    webkit_user_content_manager_register_script_message_handler(manager, "done");
    g_signal_connect(manager, "script-message-with-reply-received::bench", G_CALLBACK(on_bench), NULL);
    g_signal_connect(manager, "script-message-received::done", G_CALLBACK(on_done), NULL);
    g_signal_connect(view, "script-dialog", G_CALLBACK(on_dialog), NULL);
    g_signal_connect(view, "load-failed", G_CALLBACK(on_load_failed), NULL);

    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    gtk_container_add(GTK_CONTAINER(window), view);
    gtk_widget_show_all(window);
    g_autofree char *uri = g_strdup_printf("app://host/page.html?n=%d", calls);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
    g_timeout_add_seconds(600, on_timeout, NULL);
    gtk_main();
    return 0;
}
