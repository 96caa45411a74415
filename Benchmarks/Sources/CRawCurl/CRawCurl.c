#include "CRawCurl.h"
#include <curl/curl.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data; (void)user;
    return size * count;
}

static CURL *make_handle(const char *url, const char *cafile) {
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    if (cafile) {
        curl_easy_setopt(easy, CURLOPT_CAINFO, cafile);
        curl_easy_setopt(easy, CURLOPT_CAPATH, NULL);
    }
    return easy;
}

long crawcurl_sequential(const char *url, const char *cafile, long count, double *seconds) {
    curl_global_init(CURL_GLOBAL_ALL);
    CURL *easy = make_handle(url, cafile);
    long failures = 0;
    double start = now();
    for (long i = 0; i < count; i++) {
        long status = 0;
        if (curl_easy_perform(easy) != CURLE_OK) { failures++; continue; }
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        if (status != 200) failures++;
    }
    *seconds = now() - start;
    curl_easy_cleanup(easy);
    return failures;
}

long crawcurl_concurrent(const char *url, const char *cafile, long count, int inflight, double *seconds) {
    curl_global_init(CURL_GLOBAL_ALL);
    CURLM *multi = curl_multi_init();
    long started = 0, finished = 0, failures = 0;
    double start = now();
    for (int i = 0; i < inflight && started < count; i++, started++) {
        curl_multi_add_handle(multi, make_handle(url, cafile));
    }
    while (finished < count) {
        int running = 0, queued = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK || status != 200) failures++;
            finished++;
            curl_multi_remove_handle(multi, easy);
            if (started < count) {
                started++;
                curl_multi_add_handle(multi, easy);  // reuse the handle for the next request
            } else {
                curl_easy_cleanup(easy);
            }
        }
        if (finished < count) curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    *seconds = now() - start;
    curl_multi_cleanup(multi);
    return failures;
}
