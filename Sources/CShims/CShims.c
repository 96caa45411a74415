#include "CShims.h"

CURLcode cshims_easy_setopt_long(CURL *handle, CURLoption option, long value) { return curl_easy_setopt(handle, option, value); }
CURLcode cshims_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) { return curl_easy_setopt(handle, option, value); }
CURLcode cshims_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value) { return curl_easy_setopt(handle, option, value); }
CURLcode cshims_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback) { return curl_easy_setopt(handle, option, callback); }
CURLcode cshims_easy_setopt_ssl_ctx_function(CURL *handle, curl_ssl_ctx_callback callback) { return curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, callback); }
CURLcode cshims_easy_setopt_prereq_function(CURL *handle, curl_prereq_callback callback) { return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback); }
CURLcode cshims_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) { return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback); }
CURLcode cshims_easy_setopt_debug_function(CURL *handle, curl_debug_callback callback) { return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback); }
CURLcode cshims_easy_setopt_read_function(CURL *handle, curl_read_callback callback) { return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback); }

CURLcode cshims_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl_easy_getinfo(handle, info, value); }
CURLcode cshims_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) { return curl_easy_getinfo(handle, info, value); }
CURLcode cshims_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) { return curl_easy_getinfo(handle, info, value); }
CURLcode cshims_easy_getinfo_ptr(CURL *handle, CURLINFO info, void *value) { return curl_easy_getinfo(handle, info, value); }

CURLMcode cshims_multi_setopt_long(CURLM *handle, CURLMoption option, long value) { return curl_multi_setopt(handle, option, value); }

int cshims_sk_X509_num(const STACK_OF(X509) *stack) { return stack == NULL ? 0 : sk_X509_num(stack); }
X509 *cshims_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
void cshims_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

int cshims_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) { return (int)SSL_CTX_set_min_proto_version(ctx, version); }
int cshims_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) { return (int)SSL_CTX_set_max_proto_version(ctx, version); }
long cshims_SSL_CTX_add_extra_chain_cert(SSL_CTX *ctx, X509 *cert) { return SSL_CTX_add_extra_chain_cert(ctx, cert); }
long cshims_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_session_cache_mode(ctx, mode); }
int cshims_SSL_CTX_set_tlsext_servername_callback(SSL_CTX *ctx, int (*callback)(SSL *, int *, void *), void *arg) {
    if (!SSL_CTX_set_tlsext_servername_callback(ctx, callback)) return 0;
    return (int)SSL_CTX_set_tlsext_servername_arg(ctx, arg);
}
long cshims_SSL_set_tlsext_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
int cshims_SSL_CTX_get_ex_new_index(void) { return SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL); }
void cshims_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }
unsigned long cshims_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

int cshims_ERR_GET_LIB(unsigned long code) { return ERR_GET_LIB(code); }
int cshims_ERR_GET_REASON(unsigned long code) { return ERR_GET_REASON(code); }
int cshims_sk_GENERAL_NAME_num(const STACK_OF(GENERAL_NAME) *stack) { return stack == NULL ? 0 : sk_GENERAL_NAME_num(stack); }
GENERAL_NAME *cshims_sk_GENERAL_NAME_value(const STACK_OF(GENERAL_NAME) *stack, int index) { return sk_GENERAL_NAME_value(stack, index); }
void cshims_GENERAL_NAMES_free(STACK_OF(GENERAL_NAME) *names) { GENERAL_NAMES_free(names); }
int cshims_sk_GENERAL_SUBTREE_num(const STACK_OF(GENERAL_SUBTREE) *stack) { return stack == NULL ? 0 : sk_GENERAL_SUBTREE_num(stack); }
GENERAL_SUBTREE *cshims_sk_GENERAL_SUBTREE_value(const STACK_OF(GENERAL_SUBTREE) *stack, int index) { return sk_GENERAL_SUBTREE_value(stack, index); }
STACK_OF(X509) *cshims_sk_X509_new_null(void) { return sk_X509_new_null(); }
int cshims_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
int cshims_sk_X509_NAME_num(const STACK_OF(X509_NAME) *stack) { return stack ? sk_X509_NAME_num(stack) : 0; }
X509_NAME *cshims_sk_X509_NAME_value(const STACK_OF(X509_NAME) *stack, int index) { return sk_X509_NAME_value(stack, index); }
