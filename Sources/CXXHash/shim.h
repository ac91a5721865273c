#ifndef TABICONS_CXXHASH_SHIM_H
#define TABICONS_CXXHASH_SHIM_H
#include <xxhash.h>
#endif
