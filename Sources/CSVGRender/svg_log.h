/*
 * GLib's log lines (librsvg's, Pango's, GLib's own warnings) caught while this thread is inside a
 * librsvg call of ours, so they never reach stderr raw (SPEC §2: errors are values): the text is
 * kept, bounded, and folded into the error's reason where it explains a failure.
 */
#ifndef TABICONS_SVG_LOG_H
#define TABICONS_SVG_LOG_H

#include "CSVGRender.h"
#include "svg_library.h"

/* Installs the catching functions, once per process. Pango and librsvg log structured
 * (g_log_structured_*), which only GLib's writer function sees, and GLib lets that be set once
 * (a second g_log_set_writer_func aborts): so the writer is set only when `may_set_writer`, i.e.
 * GLib came into the process with librsvg and no one can have set one before. (An app that loads
 * GLib itself afterwards and sets its own writer would then be refused by GLib: such an app should
 * set it before its first SVG.) Plain g_log lines are caught through g_log_set_default_handler,
 * which can be replaced safely. Lines logged on threads that are not inside one of our calls go
 * on to GLib's default writer, or the default handler that was there before. */
void tabicons_svg_log_install(const tabicons_svg_library *lib, int may_set_writer);

/* Starts catching this thread's log lines (clearing what an earlier call caught). */
void tabicons_svg_log_begin(void);

/* Stops catching; answers what was caught (malloc'd, the caller frees it) or NULL. */
char *tabicons_svg_log_end(void);

#endif
