#include "CShims.h"

CURLcode cshims_easy_setopt_long(CURL *handle, CURLoption option, long value) { return curl_easy_setopt(handle, option, value); }
CURLcode cshims_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) { return curl_easy_setopt(handle, option, value); }
CURLcode cshims_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value) { return curl_easy_setopt(handle, option, value); }
CURLcode cshims_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback) { return curl_easy_setopt(handle, option, callback); }
CURLcode cshims_easy_setopt_ssl_ctx_function(CURL *handle, curl_ssl_ctx_callback callback) { return curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, callback); }
CURLcode cshims_easy_setopt_prereq_function(CURL *handle, curl_prereq_callback callback) { return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback); }
CURLcode cshims_easy_setopt_sockopt_function(CURL *handle, curl_sockopt_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, callback);
}
CURLcode cshims_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) { return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback); }
CURLcode cshims_easy_setopt_debug_function(CURL *handle, curl_debug_callback callback) { return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback); }
CURLcode cshims_easy_setopt_read_function(CURL *handle, curl_read_callback callback) { return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback); }

CURLcode cshims_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl_easy_getinfo(handle, info, value); }
CURLcode cshims_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) { return curl_easy_getinfo(handle, info, value); }
CURLcode cshims_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) { return curl_easy_getinfo(handle, info, value); }
CURLcode cshims_easy_getinfo_ptr(CURL *handle, CURLINFO info, void *value) { return curl_easy_getinfo(handle, info, value); }

CURLMcode cshims_multi_setopt_long(CURLM *handle, CURLMoption option, long value) { return curl_multi_setopt(handle, option, value); }
