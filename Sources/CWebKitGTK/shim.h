// The one C header HybridShell imports. Swift cannot see function-like macros or call variadic
// functions, so the few we need are re-stated here as static inline functions.
#ifndef HYBRIDSHELL_CWEBKITGTK_SHIM_H
#define HYBRIDSHELL_CWEBKITGTK_SHIM_H

#include <webkit2/webkit2.h>
#include <glib-unix.h>
#include <libsoup/soup.h>
#include <gdk/gdkx.h>
#include "wayland_idle.h"
#include <gio/gunixinputstream.h>
#include <sys/prctl.h>

static inline GObject *hs_object(gpointer instance) { return G_OBJECT(instance); }
static inline GtkWidget *hs_widget(gpointer instance) { return GTK_WIDGET(instance); }
static inline GtkContainer *hs_container(gpointer instance) { return GTK_CONTAINER(instance); }
static inline GtkWindow *hs_window(gpointer instance) { return GTK_WINDOW(instance); }
static inline WebKitWebView *hs_web_view(gpointer instance) { return WEBKIT_WEB_VIEW(instance); }

static inline gboolean hs_is_web_view(gpointer instance) { return WEBKIT_IS_WEB_VIEW(instance); }

/// `g_object_new(WEBKIT_TYPE_WEB_VIEW, …)` with the properties a web view can only get at construction.
static inline WebKitWebView *hs_web_view_new(WebKitWebContext *context,
                                             WebKitUserContentManager *content_manager,
                                             WebKitSettings *settings,
                                             WebKitWebView *related_view)
{
    if (related_view != NULL) {
        return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
                                            "related-view", related_view,
                                            "user-content-manager", content_manager,
                                            "settings", settings,
                                            NULL));
    }
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
                                        "web-context", context,
                                        "user-content-manager", content_manager,
                                        "settings", settings,
                                        NULL));
}

/// `g_object_new(WEBKIT_TYPE_WEB_VIEW, …)` for a view a WebDriver session drives:
/// `is-controlled-by-automation` can only be set at construction.
static inline WebKitWebView *hs_web_view_new_automated(WebKitWebContext *context,
                                                       WebKitUserContentManager *content_manager,
                                                       WebKitSettings *settings)
{
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
                                        "web-context", context,
                                        "user-content-manager", content_manager,
                                        "settings", settings,
                                        "is-controlled-by-automation", TRUE,
                                        NULL));
}

/// `webkit_website_data_manager_new(…)` is variadic.
static inline WebKitWebsiteDataManager *hs_website_data_manager_new(const char *base_data_directory,
                                                                    const char *base_cache_directory)
{
    return webkit_website_data_manager_new("base-data-directory", base_data_directory,
                                           "base-cache-directory", base_cache_directory,
                                           NULL);
}

static inline const GVariantType *hs_variant_type(const char *type_string) { return G_VARIANT_TYPE(type_string); }

static inline GQuark hs_webkit_network_error(void) { return WEBKIT_NETWORK_ERROR; }
static inline GQuark hs_webkit_policy_error(void) { return WEBKIT_POLICY_ERROR; }
static inline GQuark hs_webkit_javascript_error(void) { return WEBKIT_JAVASCRIPT_ERROR; }
static inline GQuark hs_io_error(void) { return G_IO_ERROR; }

/// Names the calling thread (`PR_SET_NAME`; at most 15 bytes are kept): `prctl` is variadic and
/// `pthread_setname_np` is hidden from Swift by Glibc's module.
static inline void hs_name_this_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

/// Enum constants GLib and libsoup declare that CGLib (the core's C module) declares too: Swift
/// cannot tell which module's name a file means, so the WebKit layer reaches them through these.
static inline SoupMessageHeaders *hs_response_headers_new(void) { return soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE); }
static inline GSeekType hs_seek_set(void) { return G_SEEK_SET; }

static inline gboolean hs_true(void) { return TRUE; }
static inline gboolean hs_false(void) { return FALSE; }

/// `G_OBJECT_TYPE_NAME`: which kind of `WebKitPermissionRequest` arrived.
static inline const char *hs_type_name(gpointer instance) { return G_OBJECT_TYPE_NAME(instance); }

/// `GDK_IS_X11_DISPLAY`: X11-only calls (the screen saver reset) are skipped elsewhere.
static inline gboolean hs_is_x11_display(GdkDisplay *display) { return GDK_IS_X11_DISPLAY(display); }

/// Resets the X server's screen-saver and DPMS idle timers, as `xset s reset` does.
static inline void hs_x11_reset_screen_saver(GdkDisplay *display) {
    if (GDK_IS_X11_DISPLAY(display)) XResetScreenSaver(gdk_x11_display_get_xdisplay(display));
}

/// `g_object_new(WEBKIT_TYPE_WEB_CONTEXT, …)` with memory-pressure settings for its web processes
/// (a construct-only property).
static inline WebKitWebContext *hs_web_context_new(WebKitWebsiteDataManager *manager,
                                                   WebKitMemoryPressureSettings *memory)
{
    if (manager != NULL) {
        return WEBKIT_WEB_CONTEXT(g_object_new(WEBKIT_TYPE_WEB_CONTEXT, "website-data-manager", manager,
                                               "memory-pressure-settings", memory, NULL));
    }
    return WEBKIT_WEB_CONTEXT(g_object_new(WEBKIT_TYPE_WEB_CONTEXT, "memory-pressure-settings", memory, NULL));
}

/// `G_INPUT_STREAM`: response bodies handed to `WebKitURISchemeResponse`.
static inline GInputStream *hs_input_stream(gpointer instance) { return G_INPUT_STREAM(instance); }

/// GTK's print dialog, `<gtk/gtkunixprint.h>`: its headers live in gtk-3.0/unix-print, which
/// webkit2gtk's pkg-config flags do not name, so the few functions the print module uses are
/// declared here (libgtk-3 exports them). Shown without a nested loop, unlike
/// `webkit_print_operation_run_dialog`.
typedef struct _GtkPrintUnixDialog GtkPrintUnixDialog;
typedef struct _GtkPrinter GtkPrinter;
GtkWidget *gtk_print_unix_dialog_new(const gchar *title, GtkWindow *parent);
void gtk_print_unix_dialog_set_settings(GtkPrintUnixDialog *dialog, GtkPrintSettings *settings);
GtkPrintSettings *gtk_print_unix_dialog_get_settings(GtkPrintUnixDialog *dialog);
GtkPageSetup *gtk_print_unix_dialog_get_page_setup(GtkPrintUnixDialog *dialog);
GtkPrinter *gtk_print_unix_dialog_get_selected_printer(GtkPrintUnixDialog *dialog);
void gtk_print_unix_dialog_set_embed_page_setup(GtkPrintUnixDialog *dialog, gboolean embed);
const gchar *gtk_printer_get_name(GtkPrinter *printer);

#endif
