#include "CRawCurl.h"
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/// A body buffer per handle: the bytes are kept (as a client that uses them must), reset per request.
typedef struct {
    char *data;
    size_t length, capacity;
    long long *total;
} body;

static size_t append(char *data, size_t size, size_t count, void *user) {
    body *b = user;
    size_t n = size * count;
    if (b->length + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 16384;
        while (capacity < b->length + n) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) return 0;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, data, n);
    b->length += n;
    *b->total += (long long)n;
    return n;
}

static CURL *make_handle(const char *url, const char *cafile, int close, int resume, int http2, const char *client_cert,
                         const char *client_key, struct curl_slist *headers, body *buffer) {
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, http2 ? (long)CURL_HTTP_VERSION_2TLS : (long)CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, append);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, buffer);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 30000L);
    if (cafile) {
        curl_easy_setopt(easy, CURLOPT_CAINFO, cafile);
        curl_easy_setopt(easy, CURLOPT_CAPATH, NULL);
    }
    if (client_cert && client_key) {
        curl_easy_setopt(easy, CURLOPT_SSLCERT, client_cert);
        curl_easy_setopt(easy, CURLOPT_SSLKEY, client_key);
    }
    if (close) {
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
        /* libcurl's own session cache: on (its default) only when asked to resume. */
        if (!resume) curl_easy_setopt(easy, CURLOPT_SSL_SESSIONID_CACHE, 0L);
    }
    return easy;
}

static int succeeded(CURL *easy, CURLcode code) {
    long status = 0;
    if (code != CURLE_OK) return 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    return status == 200;
}

/// Sequential: `n` requests on one easy handle; stops starting new ones at `deadline` (0: none).
static void sequential(CURL *easy, body *buffer, long n, double deadline, double *latencies, crawcurl_result *result) {
    for (long i = 0; i < n; i++) {
        double start = now();
        if (deadline > 0 && start > deadline) break;
        buffer->length = 0;
        CURLcode code = curl_easy_perform(easy);
        if (latencies) latencies[result->completed] = (now() - start) * 1e6;
        if (!succeeded(easy, code)) result->failures++;
        result->completed++;
    }
}

/// `n` requests through `multi`, `inflight` at a time, reusing `handles`.
static void concurrent(CURLM *multi, CURL **handles, body *buffers, int inflight, long n, double deadline, double *latencies,
                       crawcurl_result *result) {
    long started = 0, finished = 0;
    for (int i = 0; i < inflight && started < n; i++, started++) {
        buffers[i].length = 0;
        curl_multi_add_handle(multi, handles[i]);
    }
    while (finished < started) {
        int running = 0, queued = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            CURLcode code = message->data.result;
            if (latencies) {
                curl_off_t total = 0;
                curl_easy_getinfo(easy, CURLINFO_TOTAL_TIME_T, &total);
                latencies[result->completed] = (double)total;
            }
            if (!succeeded(easy, code)) result->failures++;
            result->completed++;
            finished++;
            curl_multi_remove_handle(multi, easy);
            if (started < n && !(deadline > 0 && now() > deadline)) {
                started++;
                body *buffer = NULL;
                curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&buffer);
                buffer->length = 0;
                curl_multi_add_handle(multi, easy);  // the same handle again: its connection stays in the cache
            }
        }
        if (finished < started) curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
}

crawcurl_result crawcurl_run(const char *url, const char *cafile, long count, long warmup, int inflight, int close, int resume,
                             int http2, const char *client_cert, const char *client_key, double max_seconds, double *latencies) {
    crawcurl_result result = {0, 0, 0, 0};
    crawcurl_result ignored = {0, 0, 0, 0};
    long long bytes = 0;
    curl_global_init(CURL_GLOBAL_ALL);
    struct curl_slist *headers = curl_slist_append(NULL, "Connection: close");
    if (inflight <= 1) {
        body buffer = {NULL, 0, 0, &bytes};
        CURL *easy = make_handle(url, cafile, close, resume, http2, client_cert, client_key, headers, &buffer);
        sequential(easy, &buffer, warmup, 0, NULL, &ignored);
        bytes = 0;
        double start = now();
        sequential(easy, &buffer, count, max_seconds > 0 ? start + max_seconds : 0, latencies, &result);
        result.seconds = now() - start;
        curl_easy_cleanup(easy);
        free(buffer.data);
    } else {
        CURLM *multi = curl_multi_init();
        CURL **handles = calloc((size_t)inflight, sizeof(CURL *));
        body *buffers = calloc((size_t)inflight, sizeof(body));
        for (int i = 0; i < inflight; i++) {
            buffers[i].total = &bytes;
            handles[i] = make_handle(url, cafile, close, resume, http2, client_cert, client_key, headers, &buffers[i]);
            curl_easy_setopt(handles[i], CURLOPT_PRIVATE, &buffers[i]);
        }
        concurrent(multi, handles, buffers, inflight, warmup, 0, NULL, &ignored);
        bytes = 0;
        double start = now();
        concurrent(multi, handles, buffers, inflight, count, max_seconds > 0 ? start + max_seconds : 0, latencies, &result);
        result.seconds = now() - start;
        for (int i = 0; i < inflight; i++) {
            curl_easy_cleanup(handles[i]);
            free(buffers[i].data);
        }
        free(buffers);
        free(handles);
        curl_multi_cleanup(multi);
    }
    result.bytes = bytes;
    result.failures += ignored.failures;
    curl_slist_free_all(headers);
    return result;
}
