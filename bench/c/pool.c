/* pool.c: C baseline for the view pool (`hybrid-bench pool ...`, same arguments).
 *
 * Usage: pool fresh|prewarmed|related URL-OR-PATH [REPEATS]     (REPEATS defaults to 10)
 *        pool memory N URL-OR-PATH [--related]
 *
 * All views share one own web context; each view sits in its own shown toplevel GtkWindow.
 * Timing scenarios first open one untimed "base" view on the page and keep it (so the network
 * process is up, as in a running app), then REPEATS times, timed with the monotonic clock:
 *   fresh      create a view, load the page, until WEBKIT_LOAD_FINISHED
 *   prewarmed  create a view and load about:blank (untimed), then time loading the page
 *   related    create a view with "related-view" = the base view (sharing its web process),
 *              load the page, until WEBKIT_LOAD_FINISHED
 * After each repeat the view's window is destroyed and the loop idles 300 ms, so its web
 * process shutting down does not overlap the next repeat. Prints one JSON line:
 *   {"scenario":"fresh","runs":10,"load_ms":151.2,"load_min_ms":140.3,"load_max_ms":170.8}
 * memory: opens N views on the page at once (with --related, views 2..N are related to view
 * 1), waits until all finished, idles 1 s, then sums Pss: of /proc/PID/smaps_rollup over this
 * process and all its descendants (WebKitWebProcess, WebKitNetworkProcess, ...):
 *   {"scenario":"memory","views":5,"related":false,"processes":7,"pss_mib":612.3,
 *    "ui_pss_mib":80.1,"web_pss_mib":480.2,"network_pss_mib":40.0,"other_pss_mib":12.0}
 * Exits 1 on bad usage or errors, 2 on load-failed, 3 if a web process dies.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <webkit2/webkit2.h>

static WebKitWebContext *context;
static int pending_loads;

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
    if (event == WEBKIT_LOAD_FINISHED)
        pending_loads--;
}

static gboolean on_load_failed(WebKitWebView *view, WebKitLoadEvent event, char *uri,
                               GError *error, gpointer data)
{
    fprintf(stderr, "pool: loading %s failed: %s\n", uri, error->message);
    exit(2);
}

static void on_web_process_terminated(WebKitWebView *view,
                                      WebKitWebProcessTerminationReason reason, gpointer data)
{
    fprintf(stderr, "pool: web process terminated (reason %d)\n", reason);
    exit(3);
}

static WebKitWebView *open_view(WebKitWebView *related)
{
    GtkWidget *view = related
        ? webkit_web_view_new_with_related_view(related)
        : webkit_web_view_new_with_context(context);
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    gtk_container_add(GTK_CONTAINER(window), view);
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
    g_signal_connect(view, "load-failed", G_CALLBACK(on_load_failed), NULL);
    g_signal_connect(view, "web-process-terminated", G_CALLBACK(on_web_process_terminated), NULL);
    gtk_widget_show_all(window);
    return WEBKIT_WEB_VIEW(view);
}

static void close_view(WebKitWebView *view)
{
    /* Its web process may exit with it: that is no crash. */
    g_signal_handlers_disconnect_by_func(view, on_web_process_terminated, NULL);
    gtk_widget_destroy(gtk_widget_get_toplevel(GTK_WIDGET(view)));
}

static void load(WebKitWebView *view, const char *uri)
{
    pending_loads++;
    webkit_web_view_load_uri(view, uri);
}

static void wait_for_loads(void)
{
    while (pending_loads > 0)
        g_main_context_iteration(NULL, TRUE);
}

static gboolean on_idle_done(gpointer done)
{
    *(gboolean *)done = TRUE;
    return G_SOURCE_REMOVE;
}

static void idle_ms(guint ms)
{
    gboolean done = FALSE;
    g_timeout_add(ms, on_idle_done, &done);
    while (!done)
        g_main_context_iteration(NULL, TRUE);
}

static double now_ms(void)
{
    return g_get_monotonic_time() / 1000.0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int run_timing(const char *scenario, const char *uri, int repeats)
{
    WebKitWebView *base = open_view(NULL);
    load(base, uri);
    wait_for_loads();

    double *times = g_new(double, repeats);
    for (int i = 0; i < repeats; i++) {
        WebKitWebView *view;
        double start;
        if (strcmp(scenario, "prewarmed") == 0) {
            view = open_view(NULL);
            load(view, "about:blank");
            wait_for_loads();
            start = now_ms();
        } else {
            start = now_ms();
            view = open_view(strcmp(scenario, "related") == 0 ? base : NULL);
        }
        load(view, uri);
        wait_for_loads();
        times[i] = now_ms() - start;
        close_view(view);
        idle_ms(300);
    }
    qsort(times, repeats, sizeof *times, compare_doubles);
    double median = repeats % 2 ? times[repeats / 2]
                                : (times[repeats / 2 - 1] + times[repeats / 2]) / 2;
    printf("{\"scenario\":\"%s\",\"runs\":%d,\"load_ms\":%.1f,\"load_min_ms\":%.1f,"
           "\"load_max_ms\":%.1f}\n", scenario, repeats, median, times[0], times[repeats - 1]);
    g_free(times);
    return 0;
}

/* Reads field 4 (ppid) and the comm of /proc/PID/stat; comm may hold spaces and parentheses. */
static gboolean read_stat(int pid, int *ppid, char *comm, size_t comm_size)
{
    char path[64];
    g_snprintf(path, sizeof path, "/proc/%d/stat", pid);
    g_autofree char *stat = NULL;
    if (!g_file_get_contents(path, &stat, NULL, NULL))
        return FALSE;
    char *open = strchr(stat, '('), *close = strrchr(stat, ')');
    if (!open || !close || sscanf(close + 2, "%*c %d", ppid) != 1)
        return FALSE;
    g_strlcpy(comm, open + 1, MIN(comm_size, (size_t)(close - open)));
    return TRUE;
}

static double pss_mib(int pid)
{
    char path[64];
    g_snprintf(path, sizeof path, "/proc/%d/smaps_rollup", pid);
    g_autofree char *rollup = NULL;
    g_autoptr(GError) error = NULL;
    if (!g_file_get_contents(path, &rollup, NULL, &error)) {
        fprintf(stderr, "pool: %s\n", error->message);
        exit(1);
    }
    const char *line = strstr(rollup, "\nPss:");
    if (!line) {
        fprintf(stderr, "pool: no Pss: line in %s\n", path);
        exit(1);
    }
    return g_ascii_strtod(line + 5, NULL) / 1024.0;
}

/* This process and all its descendants, as a list of pids. */
static GArray *process_tree(void)
{
    g_autoptr(GArray) pids = g_array_new(FALSE, FALSE, sizeof(int));
    g_autoptr(GArray) ppids = g_array_new(FALSE, FALSE, sizeof(int));
    DIR *proc = opendir("/proc");
    if (!proc) {
        perror("pool: /proc");
        exit(1);
    }
    for (struct dirent *entry; (entry = readdir(proc));) {
        int pid = atoi(entry->d_name), ppid;
        char comm[64];
        if (pid > 0 && read_stat(pid, &ppid, comm, sizeof comm)) {
            g_array_append_val(pids, pid);
            g_array_append_val(ppids, ppid);
        }
    }
    closedir(proc);

    GArray *tree = g_array_new(FALSE, FALSE, sizeof(int));
    int self = getpid();
    g_array_append_val(tree, self);
    for (guint i = 0; i < tree->len; i++)
        for (guint j = 0; j < pids->len; j++)
            if (g_array_index(ppids, int, j) == g_array_index(tree, int, i))
                g_array_append_val(tree, g_array_index(pids, int, j));
    return tree;
}

static int run_memory(int n, const char *uri, gboolean related)
{
    WebKitWebView *first = NULL;
    for (int i = 0; i < n; i++) {
        WebKitWebView *view = open_view(related ? first : NULL);
        if (!first)
            first = view;
        load(view, uri);
    }
    wait_for_loads();
    idle_ms(1000);

    g_autoptr(GArray) tree = process_tree();
    double ui = 0, web = 0, network = 0, other = 0;
    for (guint i = 0; i < tree->len; i++) {
        int pid = g_array_index(tree, int, i), ppid;
        char comm[64] = "";
        read_stat(pid, &ppid, comm, sizeof comm);
        double pss = pss_mib(pid);
        if (pid == getpid())
            ui += pss;
        else if (g_str_has_prefix(comm, "WebKitWebProces"))
            web += pss;
        else if (g_str_has_prefix(comm, "WebKitNetworkPr"))
            network += pss;
        else
            other += pss;
    }
    printf("{\"scenario\":\"memory\",\"views\":%d,\"related\":%s,\"processes\":%u,\"pss_mib\":%.1f,"
           "\"ui_pss_mib\":%.1f,\"web_pss_mib\":%.1f,\"network_pss_mib\":%.1f,\"other_pss_mib\":%.1f}\n",
           n, related ? "true" : "false", tree->len, ui + web + network + other, ui, web, network, other);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: pool fresh|prewarmed|related URL-OR-PATH [REPEATS]\n"
                    "       pool memory N URL-OR-PATH [--related]\n");
    return 1;
}

int main(int argc, char **argv)
{
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "pool: cannot open a display (is DISPLAY set?)\n");
        return 1;
    }
    if (argc < 3)
        return usage();
    context = webkit_web_context_new();
    const char *scenario = argv[1];

    if (strcmp(scenario, "memory") == 0) {
        int n = argc >= 4 ? atoi(argv[2]) : 0;
        gboolean related = argc == 5 && strcmp(argv[4], "--related") == 0;
        if (n < 1 || argc > 5 || (argc == 5 && !related))
            return usage();
        g_autofree char *uri = to_uri(argv[3]);
        return run_memory(n, uri, related);
    }
    if (strcmp(scenario, "fresh") && strcmp(scenario, "prewarmed") && strcmp(scenario, "related"))
        return usage();
    int repeats = argc >= 4 ? atoi(argv[3]) : 10;
    if (repeats < 1 || argc > 4)
        return usage();
    g_autofree char *uri = to_uri(argv[2]);
    return run_timing(scenario, uri, repeats);
}
