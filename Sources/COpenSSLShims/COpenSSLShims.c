#include "COpenSSLShims.h"

#include <string.h>

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

STACK_OF(X509_CRL) *cshims_sk_X509_CRL_new_null(void) { return sk_X509_CRL_new_null(); }
int cshims_sk_X509_CRL_push(STACK_OF(X509_CRL) *stack, X509_CRL *crl) { return sk_X509_CRL_push(stack, crl); }
void cshims_sk_X509_CRL_pop_free(STACK_OF(X509_CRL) *stack) { sk_X509_CRL_pop_free(stack, X509_CRL_free); }
int cshims_sk_X509_CRL_num(const STACK_OF(X509_CRL) *stack) { return sk_X509_CRL_num(stack); }
X509_CRL *cshims_sk_X509_CRL_value(const STACK_OF(X509_CRL) *stack, int index) { return sk_X509_CRL_value(stack, index); }
long cshims_SSL_CTX_set_tlsext_status_type(SSL_CTX *ctx, int type) { return SSL_CTX_set_tlsext_status_type(ctx, type); }
long cshims_SSL_CTX_set_tlsext_status_cb(SSL_CTX *ctx, int (*callback)(SSL *, void *)) {
    return SSL_CTX_set_tlsext_status_cb(ctx, callback);
}
long cshims_SSL_CTX_set_tlsext_status_arg(SSL_CTX *ctx, void *arg) { return SSL_CTX_set_tlsext_status_arg(ctx, arg); }
long cshims_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **response) {
    return SSL_get_tlsext_status_ocsp_resp(ssl, response);
}
long cshims_SSL_set_tlsext_status_ocsp_resp(SSL *ssl, unsigned char *response, long length) {
    return SSL_set_tlsext_status_ocsp_resp(ssl, response, length);
}
void *cshims_OPENSSL_memdup(const void *data, size_t length) { return OPENSSL_memdup(data, length); }

int cshims_X509_EXTENSION_decodes(X509_EXTENSION *extension) {
    const X509V3_EXT_METHOD *method = X509V3_EXT_get(extension);
    if (method == NULL) return -1;
    const ASN1_OCTET_STRING *data = X509_EXTENSION_get_data(extension);
    const unsigned char *cursor = ASN1_STRING_get0_data(data);
    const unsigned char *end = cursor + ASN1_STRING_length(data);
    // As X509V3_EXT_d2i decodes, but with the cursor kept: bytes after the value are malformed too.
    void *value = method->it != NULL ? (void *)ASN1_item_d2i(NULL, &cursor, end - cursor, ASN1_ITEM_ptr(method->it))
                                     : method->d2i(NULL, &cursor, end - cursor);
    if (value == NULL) {
        ERR_clear_error();
        return 0;
    }
    int nid = OBJ_obj2nid(X509_EXTENSION_get_object(extension));
    int ok = cursor == end;
    if (nid == NID_info_access || nid == NID_crl_distribution_points || nid == NID_certificate_policies) {
        ok = ok && OPENSSL_sk_num((const OPENSSL_STACK *)value) > 0;
    }
    // RFC 5280 asks for DER, and OpenSSL's decoder also takes BER (long lengths, primitive sequences, DEFAULT values
    // written out): a value whose DER re-encoding differs from its bytes is malformed, as a DER decoder reads it.
    if (ok && (method->it != NULL || method->i2d != NULL)) {
        unsigned char *der = NULL;
        int length = -1;
        if (method->it != NULL) {
            length = ASN1_item_i2d(value, &der, ASN1_ITEM_ptr(method->it));
        } else if ((length = method->i2d(value, NULL)) > 0 && (der = OPENSSL_malloc((size_t)length)) != NULL) {
            unsigned char *write = der;
            if (method->i2d(value, &write) != length) length = -1;
        }
        ok = der != NULL && length == ASN1_STRING_length(data) && memcmp(der, ASN1_STRING_get0_data(data), (size_t)length) == 0;
        OPENSSL_free(der);
    }
    if (method->it != NULL) {
        ASN1_item_free(value, ASN1_ITEM_ptr(method->it));
    } else if (method->ext_free != NULL) {
        method->ext_free(value);
    }
    return ok;
}
