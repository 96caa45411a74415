// The system libnghttp2 (Debian: libnghttp2-dev), exposed to Swift as one module: the MockServer's HTTP/2 framing.
#include <nghttp2/nghttp2.h>
