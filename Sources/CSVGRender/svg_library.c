#include "CSVGRender.h"
#include "svg_library.h"
#include "svg_log.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GLib's versioned name, as librsvg's dependency tree loads it. */
#ifdef __APPLE__
static const char *const glib_name = "libglib-2.0.0.dylib";
#else
static const char *const glib_name = "libglib-2.0.so.0";
#endif

/* Appends `text` to the malloc'd string `*out` (NULL: empty) after `separator`. 0 when out of memory. */
static int append(char **out, const char *separator, const char *text) {
    size_t had = *out ? strlen(*out) : 0, extra = (had ? strlen(separator) : 0) + strlen(text);
    char *grown = realloc(*out, had + extra + 1);
    if (!grown) return 0;
    if (!had) grown[0] = '\0';
    else strcat(grown, separator);
    strcat(grown, text);
    *out = grown;
    return 1;
}

/* "SVG needs librsvg 2 (a or b), which could not be loaded: <reasons>". */
static char *failure(const char *const *names, size_t count, const char *reasons) {
    char *tried = NULL;
    for (size_t i = 0; i < count; i++) {
        if (!append(&tried, " or ", names[i])) break;
    }
    const char *format = "SVG needs librsvg 2 (%s), which could not be loaded: %s";
    int length = snprintf(NULL, 0, format, tried ? tried : "", reasons);
    char *message = length >= 0 ? malloc((size_t)length + 1) : NULL;
    if (message) snprintf(message, (size_t)length + 1, format, tried ? tried : "", reasons);
    free(tried);
    return message ? message : strdup("SVG needs librsvg 2, which could not be loaded");
}

static const char *dl_reason(void) {
    const char *reason = dlerror();
    return reason ? reason : "unknown dlopen error";
}

const tabicons_svg_library *tabicons_svg_library_load(const char *const *names, size_t count,
                                                      char **message) {
    *message = NULL;
    char *reasons = NULL;
    void *dl = NULL;
    /* Whether GLib was in the process before librsvg brought it: then its app may have set GLib's
     * one log writer already, and setting ours would abort (svg_log.h). */
    void *glib = dlopen(glib_name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    int glib_was_loaded = glib != NULL;
    if (glib) dlclose(glib);
    for (size_t i = 0; i < count && !dl; i++) {
        /* RTLD_LOCAL: librsvg's dependencies (GLib, cairo, pango…) stay out of the global scope. */
        dl = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!dl) append(&reasons, "; ", dl_reason());
    }
    if (!dl) {
        *message = failure(names, count, reasons ? reasons : "no library name given");
        free(reasons);
        return NULL;
    }
    free(reasons);
    tabicons_svg_library *library = calloc(1, sizeof *library);
    if (!library) {
        dlclose(dl);
        *message = strdup("out of memory");
        return NULL;
    }
    library->dl = dl;
    /* dlsym on librsvg's handle searches its dependency tree too: GIO, GObject, GLib and cairo are
     * all among the libraries librsvg itself needs. The void * to function pointer conversion is
     * the one POSIX defines for dlsym. */
    dlerror();
#define TABICONS_SVG_RESOLVE(result, name, parameters)                                             \
    *(void **)&library->name = dlsym(dl, #name);                                                   \
    if (!library->name) goto missing;
    TABICONS_SVG_FUNCTIONS(TABICONS_SVG_RESOLVE)
#undef TABICONS_SVG_RESOLVE
    tabicons_svg_log_install(library, !glib_was_loaded);
    return library;

missing:
    *message = failure(names, count, dl_reason());
    dlclose(dl);
    free(library);
    return NULL;
}

/* The system's librsvg under its versioned name (what the runtime package installs, without the
 * development symlink): Linux's soname, or the dylib Homebrew and MacPorts install. */
static const char *const system_names[] = {
#ifdef __APPLE__
    "librsvg-2.2.dylib", "/opt/homebrew/lib/librsvg-2.2.dylib", "/usr/local/lib/librsvg-2.2.dylib",
    "/opt/local/lib/librsvg-2.2.dylib",
#else
    "librsvg-2.so.2",
#endif
};

static pthread_once_t shared_once = PTHREAD_ONCE_INIT;
static const tabicons_svg_library *shared_library;
static char *shared_message;

static void load_shared(void) {
    shared_library = tabicons_svg_library_load(system_names, sizeof system_names / sizeof *system_names,
                                               &shared_message);
}

const tabicons_svg_library *tabicons_svg_library_shared(char **message) {
    pthread_once(&shared_once, load_shared);
    *message = shared_library ? NULL : strdup(shared_message ? shared_message : "librsvg could not be loaded");
    return shared_library;
}
