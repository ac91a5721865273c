#include "svg_log.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What one call keeps of the lines it caught: enough to explain, never a flood held in memory. */
enum { TABICONS_SVG_LOG_CAPACITY = 1024 };

/* Per thread: GLib calls the default handler on the thread that logged, so each call of ours
 * sees only its own lines, with no lock. */
static _Thread_local int catching;
static _Thread_local char *caught;
static _Thread_local size_t caught_length;

static GLogFunc previous_handler;
static void *previous_data;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static const tabicons_svg_library *install_library;

/* "Pango: scaled_font status is: …", lines joined with "; ", cut at the capacity. */
static void keep(const char *domain, const char *message) {
    if (!caught) {
        caught = malloc(TABICONS_SVG_LOG_CAPACITY);
        if (!caught) return;
        caught[0] = '\0';
        caught_length = 0;
    }
    const char *parts[] = {caught_length ? "; " : "", domain ? domain : "", domain ? ": " : "", message ? message : ""};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        size_t room = TABICONS_SVG_LOG_CAPACITY - 1 - caught_length, length = strlen(parts[i]);
        if (length > room) length = room;
        memcpy(caught + caught_length, parts[i], length);
        caught_length += length;
        caught[caught_length] = '\0';
    }
}

static void handler(const char *domain, GLogLevelFlags level, const char *message, void *data) {
    (void)data;
    if (catching) {
        keep(domain, message);
    } else if (previous_handler) {
        previous_handler(domain, level, message, previous_data);
    }
}

/* A structured line: its GLIB_DOMAIN and MESSAGE fields. */
static GLogWriterOutput writer(GLogLevelFlags level, const GLogField *fields, size_t count, void *data) {
    if (!catching) return install_library->g_log_writer_default(level, fields, count, data);
    char domain[64] = "", message[TABICONS_SVG_LOG_CAPACITY] = "";
    for (size_t i = 0; i < count; i++) {
        char *into = NULL;
        size_t room = 0;
        if (strcmp(fields[i].key, "GLIB_DOMAIN") == 0) { into = domain; room = sizeof domain; }
        if (strcmp(fields[i].key, "MESSAGE") == 0) { into = message; room = sizeof message; }
        if (!into || !fields[i].value) continue;
        size_t length = fields[i].length < 0 ? strlen(fields[i].value) : (size_t)fields[i].length;
        if (length > room - 1) length = room - 1;
        memcpy(into, fields[i].value, length);
        into[length] = '\0';
    }
    keep(domain[0] ? domain : NULL, message);
    return G_LOG_WRITER_HANDLED;
}

static int install_writer;

static void install(void) {
    previous_handler = install_library->g_log_set_default_handler(handler, NULL);
    previous_data = NULL;   /* GLib's default handler takes none; another app's is not ours to know */
    if (install_writer) install_library->g_log_set_writer_func(writer, NULL, NULL);
}

void tabicons_svg_log_install(const tabicons_svg_library *lib, int may_set_writer) {
    install_library = lib;
    install_writer = may_set_writer;
    pthread_once(&install_once, install);
}

void tabicons_svg_log_begin(void) {
    free(caught);
    caught = NULL;
    caught_length = 0;
    catching = 1;
}

char *tabicons_svg_log_end(void) {
    catching = 0;
    char *text = caught;
    caught = NULL;
    caught_length = 0;
    return text;
}
