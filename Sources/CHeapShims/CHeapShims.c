#include "CHeapShims.h"

#include <malloc.h>

size_t cshims_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
