// Raw libcurl request loops: the baseline the reference stack is measured against.
#ifndef CRAWCURL_H
#define CRAWCURL_H

/// What one timed loop did. Latencies are in microseconds, one per completed request, in completion order.
typedef struct {
    long completed;       ///< requests finished in the timed loop (failed ones included)
    long failures;        ///< transfers that failed or did not answer 200
    long long bytes;      ///< body bytes received in the timed loop
    double seconds;       ///< wall time of the timed loop
} crawcurl_result;

/// Runs `warmup` untimed requests, then up to `count` timed ones, never starting a request after
/// `max_seconds` of the timed loop. `inflight` 1 uses one easy handle (curl_easy_perform); more uses one
/// multi handle with that many easy handles. `close` sends `Connection: close` and forbids reuse, so every
/// request opens a new connection with a full handshake (the session-id cache is off). `latencies` has room
/// for `count` values. `http2` offers `h2,http/1.1` in ALPN instead of HTTP/1.1 alone. `client_cert` and
/// `client_key` (PEM files, or NULL) are presented to a server that asks for a client certificate.
crawcurl_result crawcurl_run(const char *url, const char *cafile, long count, long warmup, int inflight, int close,
                             int resume, int http2, const char *client_cert, const char *client_key, double max_seconds,
                             double *latencies);

#endif
