/* streams.c: C baseline for binary streams (hybrid-bench streams, issue 34): the same transfers
 * as pages/bench/streams.html's hybrid.stream part, with raw custom-scheme requests and the least
 * code the engine allows.
 *
 * Usage: streams [MIB]      (default 256)
 *
 * A page served from the scheme `app` (secure, CORS-enabled):
 *   down  fetch('app://host/down') whose response body is MIB MiB: one 1 MiB block (byte i is
 *         i*31 mod 256) added MIB times to a GMemoryInputStream (no copy); the page reads it with
 *         a reader and checks the ends of each chunk, as streams.html does;
 *   up    MIB MiB as 4 MiB POST bodies to app://host/up, two in flight (as hybrid.stream's
 *         WritableStream sends them); the handler reads each body (webkit_uri_scheme_request_get_http_body)
 *         and counts; the page then asks app://host/total.
 * Prints {"down_mibps":…,"up_mibps":…}; a page error or failed load exits 1 or 2, 600 s exits 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webkit2/webkit2.h>

static const char *PAGE =
    "<!doctype html><meta charset=utf-8><script>\n"
    "const N = Number(new URLSearchParams(location.search).get('mib')) * 1048576;\n"
    "const CHUNK = 4 << 20;\n"
    "const rate = (bytes, t0) => Math.round(bytes / 1048576 / ((performance.now() - t0) / 1000) * 10) / 10;\n"
    "const expected = (offset) => ((offset % 1048576) * 31) & 255;\n"
    "const chunk = new Uint8Array(CHUNK);\n"
    "for (let i = 0; i < CHUNK; i++) chunk[i] = expected(i);\n"
    "async function down() {\n"
    "  const t0 = performance.now();\n"
    "  const reader = (await fetch('app://host/down', { cache: 'no-store' })).body.getReader();\n"
    "  let count = 0;\n"
    "  for (;;) {\n"
    "    const { done, value } = await reader.read();\n"
    "    if (done) break;\n"
    "    if (value[0] !== expected(count) || value[value.length - 1] !== expected(count + value.length - 1)) throw new Error('down: wrong bytes');\n"
    "    count += value.length;\n"
    "  }\n"
    "  if (count !== N) throw new Error('down: ' + count);\n"
    "  return rate(N, t0);\n"
    "}\n"
    "async function up() {\n"
    "  const t0 = performance.now();\n"
    "  const inFlight = [];\n"
    "  for (let sent = 0; sent < N; sent += CHUNK) {\n"
    "    inFlight.push(fetch('app://host/up', { method: 'POST', body: chunk, cache: 'no-store' }).then(r => { if (!r.ok) throw new Error('up: ' + r.status); }));\n"
    "    if (inFlight.length >= 2) await inFlight.shift();\n"
    "  }\n"
    "  while (inFlight.length) await inFlight.shift();\n"
    "  const total = Number(await (await fetch('app://host/total', { cache: 'no-store' })).text());\n"
    "  if (total !== N) throw new Error('up: ' + total);\n"
    "  return rate(N, t0);\n"
    "}\n"
    "(async () => {\n"
    "  const result = {};\n"
    "  try { result.down_mibps = await down(); result.up_mibps = await up(); } catch (error) { result.error = String(error); }\n"
    "  webkit.messageHandlers.done.postMessage(JSON.stringify(result));\n"
    "})();\n"
    "</script>";

static int mib;
static gint64 received;
static GBytes *block;

static void finish_text(WebKitURISchemeRequest *request, const char *text, const char *type)
{
    g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data(g_strdup(text), strlen(text), g_free);
    webkit_uri_scheme_request_finish(request, stream, strlen(text), type);
}

static void on_scheme(WebKitURISchemeRequest *request, gpointer data)
{
    const char *path = webkit_uri_scheme_request_get_path(request);
    if (strcmp(path, "/down") == 0) {
        g_autoptr(GInputStream) stream = g_memory_input_stream_new();
        for (int i = 0; i < mib; i++)
            g_memory_input_stream_add_bytes(G_MEMORY_INPUT_STREAM(stream), block);
        webkit_uri_scheme_request_finish(request, stream, (gint64)mib << 20, "application/octet-stream");
    } else if (strcmp(path, "/up") == 0) {
        g_autoptr(GInputStream) body = webkit_uri_scheme_request_get_http_body(request);
        static char buffer[64 << 10];
        gssize count;
        while (body && (count = g_input_stream_read(body, buffer, sizeof buffer, NULL, NULL)) > 0)
            received += count;
        finish_text(request, "", "text/plain");
    } else if (strcmp(path, "/total") == 0) {
        char text[32];
        snprintf(text, sizeof text, "%" G_GINT64_FORMAT, received);
        finish_text(request, text, "text/plain");
    } else {
        g_autoptr(GInputStream) page = g_memory_input_stream_new_from_data(PAGE, strlen(PAGE), NULL);
        webkit_uri_scheme_request_finish(request, page, strlen(PAGE), "text/html");
    }
}

static void on_done(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data)
{
    g_autofree char *text = jsc_value_to_string(webkit_javascript_result_get_js_value(result));
    if (strstr(text, "\"error\"")) {
        fprintf(stderr, "streams: %s\n", text);
        exit(1);
    }
    printf("%s\n", text);
    exit(0);
}

static gboolean on_load_failed(WebKitWebView *view, WebKitLoadEvent event, char *uri, GError *error, gpointer data)
{
    fprintf(stderr, "streams: loading %s failed: %s\n", uri, error->message);
    exit(2);
}

static gboolean on_timeout(gpointer data)
{
    fprintf(stderr, "streams: no result within 600 s\n");
    exit(3);
}

int main(int argc, char **argv)
{
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "streams: cannot open a display (is DISPLAY set?)\n");
        return 1;
    }
    mib = argc > 1 ? atoi(argv[1]) : 256;
    if (mib < 4 || mib % 4) {
        fprintf(stderr, "usage: streams [MIB]   (a multiple of 4, at least 4)\n");
        return 1;
    }
    guint8 *bytes = g_malloc(1 << 20);
    for (int i = 0; i < 1 << 20; i++)
        bytes[i] = (guint8)(i * 31);
    block = g_bytes_new_take(bytes, 1 << 20);
    WebKitWebContext *context = webkit_web_context_new();
    webkit_web_context_register_uri_scheme(context, "app", on_scheme, NULL, NULL);
    WebKitSecurityManager *security = webkit_web_context_get_security_manager(context);
    webkit_security_manager_register_uri_scheme_as_secure(security, "app");
    webkit_security_manager_register_uri_scheme_as_cors_enabled(security, "app");
    GtkWidget *view = webkit_web_view_new_with_context(context);
    WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager(WEBKIT_WEB_VIEW(view));
    webkit_user_content_manager_register_script_message_handler(manager, "done");
    g_signal_connect(manager, "script-message-received::done", G_CALLBACK(on_done), NULL);
    g_signal_connect(view, "load-failed", G_CALLBACK(on_load_failed), NULL);

    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    gtk_container_add(GTK_CONTAINER(window), view);
    gtk_widget_show_all(window);
    g_autofree char *uri = g_strdup_printf("app://host/page.html?mib=%d", mib);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
    g_timeout_add_seconds(600, on_timeout, NULL);
    gtk_main();
    return 0;
}
