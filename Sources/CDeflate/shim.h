#ifndef TABICONS_CDEFLATE_SHIM_H
#define TABICONS_CDEFLATE_SHIM_H
/* libdeflate, for the PNG writer (CPNGEncode) only. */
#include <libdeflate.h>
#endif
