#include "CHeapShims.h"

#include <malloc.h>

// Defined by the sanitizers' runtimes (compiler-rt's allocator interface), absent otherwise: weak, so a normal build
// links without it and sees NULL.
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

size_t cshims_heap_in_use(void) {
    // A sanitizer replaces malloc with its own allocator, which leaves glibc's figures at zero.
    if (__sanitizer_get_current_allocated_bytes != NULL) {
        return __sanitizer_get_current_allocated_bytes();
    }
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
