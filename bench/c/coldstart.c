/* coldstart.c: C baseline for `hybrid-run --url FILE --exit-after load`.
 *
 * Usage: coldstart [--stay] URL-OR-PATH
 *
 * gtk_init, an own web context, a shown toplevel GtkWindow holding a WebKitWebView; loads the
 * page and exits 0 at WEBKIT_LOAD_FINISHED (2 on load-failed, 3 if the web process dies or the
 * load takes over 60 s). The figure that matters is the process wall time, measured from
 * outside (bench/run.py coldstart). Prints one JSON line at load finish:
 *   {"main_to_load_ms":231.4}
 * --stay: print the line, then keep running until killed (for `bench/run.py --idle-cpu`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webkit2/webkit2.h>

static gint64 start_us;
static gboolean stay;

/* A URI is used as is; anything else is a path, with an optional "?query" kept. */
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

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data)
{
    if (event != WEBKIT_LOAD_FINISHED)
        return;
    printf("{\"main_to_load_ms\":%.1f}\n", (g_get_monotonic_time() - start_us) / 1000.0);
    fflush(stdout);
    if (!stay)
        exit(0);
}

static gboolean on_load_failed(WebKitWebView *view, WebKitLoadEvent event, char *uri,
                               GError *error, gpointer data)
{
    fprintf(stderr, "coldstart: loading %s failed: %s\n", uri, error->message);
    exit(2);
}

static void on_web_process_terminated(WebKitWebView *view,
                                      WebKitWebProcessTerminationReason reason, gpointer data)
{
    fprintf(stderr, "coldstart: web process terminated (reason %d)\n", reason);
    exit(3);
}

static gboolean on_timeout(gpointer data)
{
    fprintf(stderr, "coldstart: no load finished within 60 s\n");
    exit(3);
}

int main(int argc, char **argv)
{
    start_us = g_get_monotonic_time();
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "coldstart: cannot open a display (is DISPLAY set?)\n");
        return 1;
    }
    stay = argc == 3 && strcmp(argv[1], "--stay") == 0;
    if (argc != 2 && !stay) {
        fprintf(stderr, "usage: coldstart [--stay] URL-OR-PATH\n");
        return 1;
    }
    g_autofree char *uri = to_uri(argv[argc - 1]);

    WebKitWebContext *context = webkit_web_context_new();
    GtkWidget *view = webkit_web_view_new_with_context(context);
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    gtk_container_add(GTK_CONTAINER(window), view);
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
    g_signal_connect(view, "load-failed", G_CALLBACK(on_load_failed), NULL);
    g_signal_connect(view, "web-process-terminated", G_CALLBACK(on_web_process_terminated), NULL);
    gtk_widget_show_all(window);

    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
    if (!stay)
        g_timeout_add_seconds(60, on_timeout, NULL);
    gtk_main();
    return 0;
}
