/*
 * A progressive JPEG decoded at 1/8 from its DC scans alone (see jpeg_dc_only.h).
 *
 * libjpeg keeps every coefficient of a progressive file (2 bytes each: 55 MB for a 3840×2400
 * 4:4:4 photo) because a later scan may refine any of them. When every component's IDCT is 1×1,
 * the pixels come from the DC coefficients alone, so two things change, both through libjpeg's
 * own extension points:
 *
 *  - the source manager hands libjpeg the file without its AC scans (SOS with Ss > 0, and their
 *    entropy-coded data), straight from the caller's bytes: libjpeg then never writes an AC
 *    coefficient, and the refinement scans it reads are the DC ones, whose bits do not depend on
 *    AC values;
 *  - the memory manager's virtual block arrays keep one coefficient a block. libjpeg reaches
 *    the coefficients only through access_virt_barray, a few block rows at a time; each call gets
 *    a window of whole blocks whose DC terms are loaded from the compact store (and written back
 *    when the window was writable) and whose AC terms stay zero.
 *
 * The pixels are byte for byte those of a full decode (tested against one).
 */
#include "jpeg_dc_only.h"

#include <jerror.h>
#include <string.h>

/* ---- The ranges of the file libjpeg is given ---- */

struct range {
    size_t start, length;
};

/* The offset of the marker that ends the entropy-coded data starting at `i` (an 0xFF that is not
 * a stuffed zero, a restart marker or a fill byte), or `size` when there is none. */
static size_t entropy_end(const unsigned char *d, size_t i, size_t size) {
    while (i + 1 < size) {
        const unsigned char *ff = memchr(d + i, 0xFF, size - i - 1);
        if (ff == NULL) return size;
        i = (size_t)(ff - d);
        unsigned char code = d[i + 1];
        if (code == 0x00 || (code >= JPEG_RST0 && code <= JPEG_RST0 + 7)) i += 2;
        else if (code == 0xFF) i += 1;
        else return i;
    }
    return size;
}

/* More ranges than any real file has (a few per scan); a file with more is read as it is, under
 * the decoder's scan limit. */
#define MAX_RANGES 4096

/* Appends a range, merged with the previous one when they touch. 0 when `out` (MAX_RANGES long)
 * is full. */
static int add_range(struct range *out, size_t *count, size_t start, size_t length) {
    if (length == 0) return 1;
    if (*count > 0 && out[*count - 1].start + out[*count - 1].length == start) {
        out[*count - 1].length += length;
        return 1;
    }
    if (*count == MAX_RANGES) return 0;
    out[(*count)++] = (struct range){start, length};
    return 1;
}

/* Every byte of d[position ..< size] except the AC scans, as ranges into `out`, through the EOI
 * marker; `position` is the first scan's entropy-coded data. The number of ranges, or 0 when the
 * bytes are not markers and scans ending in an EOI, or need more than MAX_RANGES ranges. */
static size_t collect(const unsigned char *d, size_t position, size_t size, struct range *out) {
    size_t count = 0, i = position;
    int keep = 1;
    for (;;) {
        size_t end = entropy_end(d, i, size);
        if (end >= size) return 0;
        if (keep && !add_range(out, &count, i, end - i)) return 0;
        i = end;
        unsigned char code = d[i + 1];
        if (code == JPEG_EOI) return add_range(out, &count, i, 2) ? count : 0;
        if (code == 0xD8 || code == 0x01) return 0;     /* SOI or TEM: no length, not expected here */
        if (i + 4 > size) return 0;
        size_t length = (size_t)d[i + 2] << 8 | d[i + 3];
        if (length < 2 || length > size - i - 2) return 0;
        if (code == 0xDA) {
            if (length < 3) return 0;
            size_t components = d[i + 4];
            if (length < 6 + 2 * components) return 0;
            keep = d[i + 5 + 2 * components] == 0;       /* Ss: 0 for a DC scan */
        }
        /* An SOS header goes with its scan; tables, restart intervals and comments always. */
        if ((code != 0xDA || keep) && !add_range(out, &count, i, 2 + length)) return 0;
        i += 2 + length;
    }
}

/* ---- The source manager and the compact coefficient store ---- */

struct dc_array {
    JDIMENSION rows, width, maxaccess;
    JCOEF *dc;                 /* rows × width DC terms */
    JBLOCKARRAY window;        /* maxaccess rows of whole blocks */
    JDIMENSION first, count;   /* the block rows the window holds */
    boolean dirty;
    struct dc_array *next;
};

struct dc_state {
    struct jpeg_source_mgr source;   /* first: cinfo->src points here */
    const unsigned char *data;
    const struct range *ranges;
    size_t range_count, next_range;
    struct dc_array *arrays;
    void (*library_realize)(j_common_ptr);
};

static struct dc_state *state_of(j_common_ptr cinfo) {
    return (struct dc_state *)((j_decompress_ptr)cinfo)->src;
}

static void init_source(j_decompress_ptr cinfo) { (void)cinfo; }
static void term_source(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean fill_input_buffer(j_decompress_ptr cinfo) {
    struct dc_state *st = state_of((j_common_ptr)cinfo);
    if (st->next_range < st->range_count) {
        const struct range *r = &st->ranges[st->next_range++];
        st->source.next_input_byte = st->data + r->start;
        st->source.bytes_in_buffer = r->length;
        return TRUE;
    }
    /* Past the EOI: what libjpeg's memory source does, a warning and a fake EOI. */
    static const JOCTET eoi[2] = {0xFF, JPEG_EOI};
    WARNMS(cinfo, JWRN_JPEG_EOF);
    st->source.next_input_byte = eoi;
    st->source.bytes_in_buffer = 2;
    return TRUE;
}

static void skip_input_data(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (count <= 0) return;
    while ((size_t)count > src->bytes_in_buffer) {
        count -= (long)src->bytes_in_buffer;
        (void)(*src->fill_input_buffer)(cinfo);
    }
    src->next_input_byte += count;
    src->bytes_in_buffer -= (size_t)count;
}

static jvirt_barray_ptr request_blocks(j_common_ptr cinfo, int pool_id, boolean pre_zero,
                                       JDIMENSION width, JDIMENSION rows, JDIMENSION maxaccess) {
    (void)pre_zero;   /* the store always starts at zero */
    if (pool_id != JPOOL_IMAGE) ERREXIT1(cinfo, JERR_BAD_POOL_ID, pool_id);
    struct dc_state *st = state_of(cinfo);
    struct dc_array *a = (*cinfo->mem->alloc_small)(cinfo, pool_id, sizeof *a);
    memset(a, 0, sizeof *a);
    a->rows = rows;
    a->width = width;
    a->maxaccess = maxaccess;
    a->next = st->arrays;
    st->arrays = a;
    return (jvirt_barray_ptr)a;
}

static void realize(j_common_ptr cinfo) {
    struct dc_state *st = state_of(cinfo);
    for (struct dc_array *a = st->arrays; a != NULL; a = a->next) {
        if (a->dc != NULL) continue;
        size_t terms = (size_t)a->rows * a->width;
        a->dc = (*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, terms * sizeof(JCOEF));
        memset(a->dc, 0, terms * sizeof(JCOEF));
        a->window = (*cinfo->mem->alloc_small)(cinfo, JPOOL_IMAGE, a->maxaccess * sizeof(JBLOCKROW));
        size_t blocks = (size_t)a->maxaccess * a->width;
        JBLOCKROW storage = (*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, blocks * sizeof(JBLOCK));
        memset(storage, 0, blocks * sizeof(JBLOCK));
        for (JDIMENSION r = 0; r < a->maxaccess; r++) a->window[r] = storage + (size_t)r * a->width;
    }
    (*st->library_realize)(cinfo);   /* any sample arrays are still libjpeg's */
}

static JBLOCKARRAY access_blocks(j_common_ptr cinfo, jvirt_barray_ptr ptr, JDIMENSION first,
                                 JDIMENSION count, boolean writable) {
    struct dc_array *a = (struct dc_array *)ptr;
    if (a->dc == NULL || count > a->maxaccess || first > a->rows || count > a->rows - first)
        ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    if (!(a->count > 0 && a->first == first && count <= a->count)) {
        if (a->dirty) {
            for (JDIMENSION r = 0; r < a->count; r++) {
                JCOEF *dc = a->dc + (size_t)(a->first + r) * a->width;
                for (JDIMENSION b = 0; b < a->width; b++) dc[b] = a->window[r][b][0];
            }
        }
        for (JDIMENSION r = 0; r < count; r++) {
            const JCOEF *dc = a->dc + (size_t)(first + r) * a->width;
            for (JDIMENSION b = 0; b < a->width; b++) a->window[r][b][0] = dc[b];
        }
        a->first = first;
        a->count = count;
        a->dirty = FALSE;
    }
    if (writable) a->dirty = TRUE;
    return a->window;
}

int tabicons_jpeg_dc_only_begin(j_decompress_ptr cinfo, const unsigned char *data, size_t size) {
    if (!cinfo->progressive_mode || cinfo->Ss != 0 || cinfo->src == NULL) return 0;
    const unsigned char *at = cinfo->src->next_input_byte;
    if (at < data || at > data + size || cinfo->src->bytes_in_buffer != (size_t)(data + size - at)) return 0;
    size_t position = (size_t)(at - data);
    struct range *ranges = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT, MAX_RANGES * sizeof *ranges);
    size_t count = collect(data, position, size, ranges);
    if (count == 0) return 0;

    struct dc_state *st = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT, sizeof *st);
    memset(st, 0, sizeof *st);
    st->range_count = count;
    st->ranges = ranges;
    st->data = data;
    st->source.init_source = init_source;
    st->source.fill_input_buffer = fill_input_buffer;
    st->source.skip_input_data = skip_input_data;
    st->source.resync_to_restart = jpeg_resync_to_restart;
    st->source.term_source = term_source;
    st->source.next_input_byte = NULL;
    st->source.bytes_in_buffer = 0;
    st->library_realize = cinfo->mem->realize_virt_arrays;
    cinfo->mem->request_virt_barray = request_blocks;
    cinfo->mem->realize_virt_arrays = realize;
    cinfo->mem->access_virt_barray = access_blocks;
    cinfo->src = &st->source;
    return 1;
}
