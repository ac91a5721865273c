#include "CJPEGDecode.h"
int tabicons_jpeg_placeholder(void) { return 0; }
