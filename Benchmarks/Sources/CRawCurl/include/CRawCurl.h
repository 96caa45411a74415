// Raw libcurl request loops: the baseline the reference stack is measured against.
#ifndef CRAWCURL_H
#define CRAWCURL_H

/// Sequential GETs on one reused easy handle. Returns the number of failed requests; `seconds` gets the wall time.
long crawcurl_sequential(const char *url, const char *cafile, long count, double *seconds);

/// `count` GETs with `inflight` transfers at once on one multi handle. Returns failures; `seconds` as above.
long crawcurl_concurrent(const char *url, const char *cafile, long count, int inflight, double *seconds);

#endif
