// Thin C wrappers for what Swift cannot call directly: many OpenSSL 3 calls are macros (`sk_X509_num`,
// `SSL_CTX_set_min_proto_version`, `SSL_CTX_add_extra_chain_cert`, `SSL_set_tlsext_host_name`, ...), which Swift
// cannot see. Every function here does nothing but forward, so that the Swift above it stays type-checked.
#ifndef COPENSSLSHIMS_H
#define COPENSSLSHIMS_H

#include <openssl/err.h>
#include <openssl/ocsp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// MARK: OpenSSL stacks of certificates
int cshims_sk_X509_num(const STACK_OF(X509) *stack);
X509 *cshims_sk_X509_value(const STACK_OF(X509) *stack, int index);
void cshims_sk_X509_pop_free(STACK_OF(X509) *stack);

// MARK: OpenSSL context and connection macros
int cshims_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version);
int cshims_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version);
long cshims_SSL_CTX_add_extra_chain_cert(SSL_CTX *ctx, X509 *cert);
long cshims_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode);
int cshims_SSL_CTX_set_tlsext_servername_callback(SSL_CTX *ctx, int (*callback)(SSL *, int *, void *), void *arg);
long cshims_SSL_set_tlsext_host_name(SSL *ssl, const char *name);
int cshims_SSL_CTX_get_ex_new_index(void);
void cshims_OPENSSL_free(void *pointer);
unsigned long cshims_XN_FLAG_RFC2253(void);

// MARK: OpenSSL error codes (ERR_GET_LIB and ERR_GET_REASON are inline functions over packed bits)
int cshims_ERR_GET_LIB(unsigned long code);
int cshims_ERR_GET_REASON(unsigned long code);

// MARK: OpenSSL stacks of general names and subtrees (validation profile checks)
int cshims_sk_GENERAL_NAME_num(const STACK_OF(GENERAL_NAME) *stack);
GENERAL_NAME *cshims_sk_GENERAL_NAME_value(const STACK_OF(GENERAL_NAME) *stack, int index);
void cshims_GENERAL_NAMES_free(STACK_OF(GENERAL_NAME) *names);
int cshims_sk_GENERAL_SUBTREE_num(const STACK_OF(GENERAL_SUBTREE) *stack);
GENERAL_SUBTREE *cshims_sk_GENERAL_SUBTREE_value(const STACK_OF(GENERAL_SUBTREE) *stack, int index);
STACK_OF(X509) *cshims_sk_X509_new_null(void);
int cshims_sk_X509_push(STACK_OF(X509) *stack, X509 *cert);

// MARK: OpenSSL stacks of names (the CA names a server sends with its certificate request)
int cshims_sk_X509_NAME_num(const STACK_OF(X509_NAME) *stack);
X509_NAME *cshims_sk_X509_NAME_value(const STACK_OF(X509_NAME) *stack, int index);

// MARK: Revocation: stacks of revocation lists, and OCSP stapling (RFC 6066 status_request)
STACK_OF(X509_CRL) *cshims_sk_X509_CRL_new_null(void);
int cshims_sk_X509_CRL_push(STACK_OF(X509_CRL) *stack, X509_CRL *crl);
void cshims_sk_X509_CRL_pop_free(STACK_OF(X509_CRL) *stack);
int cshims_sk_X509_CRL_num(const STACK_OF(X509_CRL) *stack);
X509_CRL *cshims_sk_X509_CRL_value(const STACK_OF(X509_CRL) *stack, int index);
long cshims_SSL_CTX_set_tlsext_status_type(SSL_CTX *ctx, int type);
long cshims_SSL_CTX_set_tlsext_status_cb(SSL_CTX *ctx, int (*callback)(SSL *, void *));
long cshims_SSL_CTX_set_tlsext_status_arg(SSL_CTX *ctx, void *arg);
long cshims_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **response);
long cshims_SSL_set_tlsext_status_ocsp_resp(SSL *ssl, unsigned char *response, long length);
void *cshims_OPENSSL_memdup(const void *data, size_t length);

// MARK: Extension encoding (validation profile): 1 when an extension OpenSSL knows decodes and, for the ones RFC 5280
// defines as SEQUENCE SIZE (1..MAX) (authorityInfoAccess, cRLDistributionPoints, certificatePolicies), is not empty,
// and is DER (its re-encoding is its bytes); 0 when it does not; -1 for an extension OpenSSL has no decoder for.
int cshims_X509_EXTENSION_decodes(X509_EXTENSION *extension);
#endif
