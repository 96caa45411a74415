// What Swift cannot call from glibc's <malloc.h>, which the Glibc module does not import: the bytes the process's
// heap holds in use, for the soak's leak check.
#ifndef CHEAPSHIMS_H
#define CHEAPSHIMS_H

#include <stddef.h>

// Bytes allocated with malloc and not yet freed, in every arena and in mmapped chunks (glibc's mallinfo2:
// uordblks + hblkhd), or, under AddressSanitizer or ThreadSanitizer, whose allocator glibc's figures do not see, the
// sanitizer's own count. Freed memory that malloc keeps for reuse is not counted.
size_t cshims_heap_in_use(void);

#endif
