// Thin C wrappers for what Swift cannot call directly: libcurl's option and info setters are variadic
// (`curl_easy_setopt`, `curl_easy_getinfo`, `curl_multi_setopt`), and Swift imports no variadic C function.
// Every function here does nothing but forward, so that the Swift above it stays type-checked. OpenSSL's
// macros have their own shim target, COpenSSLShims, so that what needs only OpenSSL never needs libcurl.
#ifndef CSHIMS_H
#define CSHIMS_H

#include <curl/curl.h>

// MARK: libcurl easy handle options
CURLcode cshims_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode cshims_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode cshims_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value);
CURLcode cshims_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode cshims_easy_setopt_ssl_ctx_function(CURL *handle, curl_ssl_ctx_callback callback);
CURLcode cshims_easy_setopt_prereq_function(CURL *handle, curl_prereq_callback callback);
CURLcode cshims_easy_setopt_sockopt_function(CURL *handle, curl_sockopt_callback callback);
CURLcode cshims_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback);
CURLcode cshims_easy_setopt_debug_function(CURL *handle, curl_debug_callback callback);
CURLcode cshims_easy_setopt_read_function(CURL *handle, curl_read_callback callback);

// MARK: libcurl easy handle info
CURLcode cshims_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode cshims_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode cshims_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode cshims_easy_getinfo_ptr(CURL *handle, CURLINFO info, void *value);

// MARK: libcurl multi handle options
CURLMcode cshims_multi_setopt_long(CURLM *handle, CURLMoption option, long value);

#endif
