// libpsl (Debian: libpsl-dev), the Public Suffix List library Debian's libcurl already links, exposed
// to Swift for the check that a wildcard certificate name does not cover a whole public suffix.
#include <libpsl.h>
