// The system libcurl (Debian: libcurl4-openssl-dev), exposed to Swift as one module.
#include <curl/curl.h>
