// The C header of HybridShellCore: GLib, GIO and libsoup, never WebKit or GTK. Swift cannot see
// function-like macros or call variadic functions, so the few the core needs are re-stated here as
// static inline functions, prefixed hsg_ so they never collide with CWebKitGTK's hs_ helpers.
#ifndef HYBRIDSHELL_CGLIB_SHIM_H
#define HYBRIDSHELL_CGLIB_SHIM_H

#include <glib.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <libsoup/soup.h>
#include <sys/prctl.h>

static inline gboolean hsg_true(void) { return TRUE; }
static inline gboolean hsg_false(void) { return FALSE; }
static inline GQuark hsg_io_error(void) { return G_IO_ERROR; }

/// Names the calling thread (`PR_SET_NAME`; at most 15 bytes are kept): `prctl` is variadic and
/// `pthread_setname_np` is hidden from Swift by Glibc's module.
static inline void hsg_name_this_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

#endif
