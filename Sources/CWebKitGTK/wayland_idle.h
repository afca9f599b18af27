// The Wayland idle-inhibit protocol (idle-inhibit-unstable-v1), which a kiosk uses to keep the
// screen on under a Wayland compositor (cage, sway, Ubuntu Frame, GNOME). GTK 3 has no API for it,
// and Debian ships only the protocol's XML, so the two interfaces wayland-scanner would generate
// are written out here (they are plain data: a name, a version and the requests' signatures).
#ifndef HYBRIDSHELL_WAYLAND_IDLE_H
#define HYBRIDSHELL_WAYLAND_IDLE_H

#include <string.h>
#include <gdk/gdkwayland.h>
#include <wayland-client.h>

static const struct wl_interface hs_zwp_idle_inhibitor_v1_interface;

static const struct wl_interface *hs_idle_inhibit_types[] = {
    NULL,
    &hs_zwp_idle_inhibitor_v1_interface,
    &wl_surface_interface,
};

static const struct wl_message hs_zwp_idle_inhibit_manager_v1_requests[] = {
    { "destroy", "", hs_idle_inhibit_types + 0 },
    { "create_inhibitor", "no", hs_idle_inhibit_types + 1 },
};

static const struct wl_interface hs_zwp_idle_inhibit_manager_v1_interface = {
    "zwp_idle_inhibit_manager_v1", 1, 2, hs_zwp_idle_inhibit_manager_v1_requests, 0, NULL,
};

static const struct wl_message hs_zwp_idle_inhibitor_v1_requests[] = {
    { "destroy", "", hs_idle_inhibit_types + 0 },
};

static const struct wl_interface hs_zwp_idle_inhibitor_v1_interface = {
    "zwp_idle_inhibitor_v1", 1, 1, hs_zwp_idle_inhibitor_v1_requests, 0, NULL,
};

static void hs_idle_registry_global(void *data, struct wl_registry *registry, uint32_t name,
                                    const char *interface, uint32_t version) {
    (void)version;
    if (strcmp(interface, hs_zwp_idle_inhibit_manager_v1_interface.name) == 0) {
        *(struct wl_proxy **)data = (struct wl_proxy *)wl_registry_bind(registry, name, &hs_zwp_idle_inhibit_manager_v1_interface, 1);
    }
}

static void hs_idle_registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener hs_idle_registry_listener = {
    hs_idle_registry_global, hs_idle_registry_global_remove,
};

/// `GDK_IS_WAYLAND_DISPLAY`.
static inline gboolean hs_is_wayland_display(GdkDisplay *display) { return GDK_IS_WAYLAND_DISPLAY(display); }

/// Asks the compositor not to blank the screen or lock while `window` is visible
/// (`zwp_idle_inhibit_manager_v1.create_inhibitor`). The inhibitor lives as long as the window's
/// surface: it is never destroyed here. The registry is read on a private event queue, so GTK's own
/// queue is never dispatched from here. FALSE when the display is not Wayland, the window has no
/// surface yet, or the compositor offers no idle-inhibit manager (weston 10 does not).
static inline gboolean hs_wayland_inhibit_idle(GdkWindow *window) {
    GdkDisplay *display = gdk_window_get_display(window);
    if (!GDK_IS_WAYLAND_DISPLAY(display)) return FALSE;
    struct wl_display *wl = gdk_wayland_display_get_wl_display(display);
    struct wl_surface *surface = gdk_wayland_window_get_wl_surface(window);
    if (wl == NULL || surface == NULL) return FALSE;
    struct wl_event_queue *queue = wl_display_create_queue(wl);
    struct wl_display *wrapper = (struct wl_display *)wl_proxy_create_wrapper(wl);
    wl_proxy_set_queue((struct wl_proxy *)wrapper, queue);
    struct wl_registry *registry = wl_display_get_registry(wrapper);
    struct wl_proxy *manager = NULL;
    wl_registry_add_listener(registry, &hs_idle_registry_listener, &manager);
    wl_display_roundtrip_queue(wl, queue);
    wl_registry_destroy(registry);
    wl_proxy_wrapper_destroy(wrapper);
    if (manager == NULL) {
        wl_event_queue_destroy(queue);
        return FALSE;
    }
    // Neither the manager nor the inhibitor has events; both stay for the life of the process,
    // and so does their queue (a queue must outlive its proxies).
    wl_proxy_marshal_flags(manager, 1, &hs_zwp_idle_inhibitor_v1_interface, 1, 0, NULL, surface);
    wl_display_flush(wl);
    return TRUE;
}

#endif
