/* scheme.c: C baseline for request interception (hybrid-bench scheme, issue 13).
 *
 * Usage: scheme blob DIR URL     load URL (pages/bench/scheme.html with ?mode=fetch&src=…) and
 *                                report the page's transfer time, the main loop's longest stall
 *                                and the UI process's RSS growth from load finished to the result
 *        scheme load DIR URL     time webkit_web_view_load_uri → WEBKIT_LOAD_FINISHED
 *
 * Registers the URI scheme "app" (secure) serving the files of DIR with the least code the
 * engine allows: webkit_uri_scheme_request_finish_with_response over a GFileInputStream from
 * g_file_read, Content-Type from the extension (as a header too, so JS sees it). URL may be
 * app:///… or file:///… (the file:// comparison). Prints one JSON line:
 *   blob: {"transfer_ms":412.3,"size":104857600,"stall_max_ms":9.8,"stall_cpu_max_ms":2.1,"rss_growth_mib":3.1,
 *          "anon_growth_mib":1.2}
 * stall_max_ms is the longest wall-clock gap between two 5 ms ticks; on a loaded machine it is
 * mostly time the thread waited for a CPU. stall_cpu_max_ms is the main thread's CPU time spent
 * between two ticks (CLOCK_THREAD_CPUTIME_ID): the longest stretch of work the loop itself did,
 * which the machine's load does not inflate. rss_growth_mib is the highest VmRSS sampled at those ticks
 * minus VmRSS at load finished; anon_growth_mib the same for RssAnon (the heap alone).
 *   load: {"load_ms":251.0}
 * Exits 2 if the load or the page fails, 3 after 120 s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <webkit2/webkit2.h>

static char *root;
static gboolean blob_mode;
static gint64 load_started_us, last_tick_us;
static double stall_max_ms, stall_cpu_max_ms, rss_start_mib, rss_max_mib, anon_start_mib, anon_max_mib;
static double last_cpu_ms;

static double thread_cpu_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return now.tv_sec * 1000.0 + now.tv_nsec / 1e6;
}

/* VmRSS and RssAnon (MiB) from /proc/self/status. RssAnon is the process's private heap: where a
 * buffered response would sit. The rest of VmRSS is RssFile (code pages) and RssShmem (the
 * window's paint buffers the web process shares, MIT-SHM). */
static void memory_mib(double *rss, double *anon)
{
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    double kib;
    *rss = *anon = 0;
    while (status && fgets(line, sizeof line, status)) {
        if (sscanf(line, "VmRSS: %lf kB", &kib) == 1) *rss = kib / 1024.0;
        if (sscanf(line, "RssAnon: %lf kB", &kib) == 1) {
            *anon = kib / 1024.0;
            break;  /* after VmRSS */
        }
    }
    if (status)
        fclose(status);
}

static const char *content_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot) return "application/octet-stream";
    if (!strcmp(dot, ".html")) return "text/html; charset=utf-8";
    if (!strcmp(dot, ".css")) return "text/css; charset=utf-8";
    if (!strcmp(dot, ".js")) return "text/javascript; charset=utf-8";
    return "application/octet-stream";
}

static void on_app_request(WebKitURISchemeRequest *request, gpointer data)
{
    g_autofree char *path = g_build_filename(root, webkit_uri_scheme_request_get_path(request), NULL);
    g_autoptr(GFile) file = g_file_new_for_path(path);
    g_autoptr(GError) error = NULL;
    g_autoptr(GFileInfo) info = g_file_query_info(file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, &error);
    g_autoptr(GFileInputStream) stream = info ? g_file_read(file, NULL, &error) : NULL;
    if (!stream) {
        webkit_uri_scheme_request_finish_error(request, error);
        return;
    }
    WebKitURISchemeResponse *response = webkit_uri_scheme_response_new(G_INPUT_STREAM(stream), g_file_info_get_size(info));
    webkit_uri_scheme_response_set_status(response, 200, "OK");
    webkit_uri_scheme_response_set_content_type(response, content_type(path));
    SoupMessageHeaders *headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE);
    soup_message_headers_append(headers, "Content-Type", content_type(path));
    webkit_uri_scheme_response_set_http_headers(response, headers);
    webkit_uri_scheme_request_finish_with_response(request, response);
    g_object_unref(response);
}

/* Every 5 ms: the longest gap between ticks is the main loop's longest stall. */
static gboolean on_tick(gpointer data)
{
    gint64 now = g_get_monotonic_time();
    double gap = (now - last_tick_us) / 1000.0;
    if (gap > stall_max_ms) stall_max_ms = gap;
    last_tick_us = now;
    double cpu = thread_cpu_ms();
    if (cpu - last_cpu_ms > stall_cpu_max_ms) stall_cpu_max_ms = cpu - last_cpu_ms;
    last_cpu_ms = cpu;
    double rss, anon;
    memory_mib(&rss, &anon);
    if (rss > rss_max_mib) rss_max_mib = rss;
    if (anon > anon_max_mib) anon_max_mib = anon;
    return G_SOURCE_CONTINUE;
}

static void on_title(WebKitWebView *view, GParamSpec *spec, gpointer data)
{
    const char *title = webkit_web_view_get_title(view);
    if (!title || title[0] != '{') return;
    if (strstr(title, "\"error\"")) {
        fprintf(stderr, "scheme: the page failed: %s\n", title);
        exit(2);
    }
    g_autofree char *fields = g_strndup(title + 1, strlen(title) - 2);
    printf("{%s,\"stall_max_ms\":%.1f,\"stall_cpu_max_ms\":%.1f,\"rss_growth_mib\":%.1f,\"anon_growth_mib\":%.1f}\n", fields,
           stall_max_ms, stall_cpu_max_ms, rss_max_mib - rss_start_mib, anon_max_mib - anon_start_mib);
    fflush(stdout);
    exit(0);
}

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data)
{
    if (event != WEBKIT_LOAD_FINISHED) return;
    if (blob_mode) {
        /* The transfer starts 100 ms after load: measure stalls and growth from here on. */
        stall_max_ms = stall_cpu_max_ms = 0;
        last_cpu_ms = thread_cpu_ms();
        memory_mib(&rss_start_mib, &anon_start_mib);
        rss_max_mib = rss_start_mib;
        anon_max_mib = anon_start_mib;
        return;
    }
    printf("{\"load_ms\":%.1f}\n", (g_get_monotonic_time() - load_started_us) / 1000.0);
    fflush(stdout);
    exit(0);
}

static gboolean on_load_failed(WebKitWebView *view, WebKitLoadEvent event, char *uri, GError *error, gpointer data)
{
    fprintf(stderr, "scheme: loading %s failed: %s\n", uri, error->message);
    exit(2);
}

static gboolean on_timeout(gpointer data)
{
    fprintf(stderr, "scheme: no result within 120 s\n");
    exit(3);
}

int main(int argc, char **argv)
{
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "scheme: cannot open a display (is DISPLAY set?)\n");
        return 1;
    }
    if (argc != 4 || (strcmp(argv[1], "blob") && strcmp(argv[1], "load"))) {
        fprintf(stderr, "usage: scheme blob|load DIR URL\n");
        return 1;
    }
    blob_mode = !strcmp(argv[1], "blob");
    root = realpath(argv[2], NULL);
    if (!root) {
        fprintf(stderr, "scheme: no directory %s\n", argv[2]);
        return 1;
    }

    WebKitWebContext *context = webkit_web_context_new();
    webkit_security_manager_register_uri_scheme_as_secure(webkit_web_context_get_security_manager(context), "app");
    webkit_web_context_register_uri_scheme(context, "app", on_app_request, NULL, NULL);
    WebKitSettings *settings = webkit_settings_new();
    webkit_settings_set_allow_file_access_from_file_urls(settings, TRUE);  /* the file:// comparison */
    GtkWidget *view = GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, "settings", settings, NULL));
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    gtk_container_add(GTK_CONTAINER(window), view);
    g_signal_connect(view, "notify::title", G_CALLBACK(on_title), NULL);
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
    g_signal_connect(view, "load-failed", G_CALLBACK(on_load_failed), NULL);
    gtk_widget_show_all(window);

    memory_mib(&rss_start_mib, &anon_start_mib);
    rss_max_mib = rss_start_mib;
    anon_max_mib = anon_start_mib;
    load_started_us = last_tick_us = g_get_monotonic_time();
    if (blob_mode) g_timeout_add(5, on_tick, NULL);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), argv[3]);
    g_timeout_add_seconds(120, on_timeout, NULL);
    gtk_main();
    return 0;
}
