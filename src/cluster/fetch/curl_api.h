/*
 * libcurl's entry points, looked up at run time.  nvitop is not linked with libcurl: the library
 * and the ~30 objects it pulls in (TLS, Kerberos, LDAP, ...) cost start-up time and resident
 * memory to every run, and only the cluster view (--hosts, --prometheus) reads the network.  The
 * cluster view opens this table once per run and passes it down in its fetch_options.
 * Thread-safety: open and close from one thread, with no transfer running; the table itself is
 * read-only once open and may be used from any thread (as libcurl's functions may).
 */
#ifndef NVITOP_SRC_CLUSTER_FETCH_CURL_API_H
#define NVITOP_SRC_CLUSTER_FETCH_CURL_API_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>

/* The soname opened (ABI 4, libcurl 7.16 and later); the test hook below may name another file. */
#define CURL_API_SONAME "libcurl.so.4"
/* Test hook: when set (and the program is not set-user-id), the path of the library to open
 * instead, so that a test can point nvitop at a missing or unusable one. */
#define CURL_API_ENV_LIBRARY "NVITOP_LIBCURL_LIBRARY"

struct curl_api {
    void *dl; /* the dlopen handle; NULL when closed */
    CURLcode (*global_init)(long flags);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *easy);
    CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *easy);
    const char *(*easy_strerror)(CURLcode code);
    char *(*easy_escape)(CURL *easy, const char *string, int length);
    void (*free)(void *p);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_socket_action)(CURLM *multi, curl_socket_t s, int ev_bitmask, int *running);
    CURLMcode (*multi_assign)(CURLM *multi, curl_socket_t s, void *data);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
    CURLMcode (*multi_cleanup)(CURLM *multi);
};

/*
 * Open libcurl, look up every entry point and run curl_global_init.  On failure *api is left
 * closed and error holds one line for the user (what is missing and which package provides it);
 * nothing is left loaded.  The caller owns the table until curl_api_close().
 */
bool curl_api_open(struct curl_api *api, char *error, size_t size);

/* curl_global_cleanup and unload; a closed (or zeroed) table is left alone. */
void curl_api_close(struct curl_api *api);

#endif /* NVITOP_SRC_CLUSTER_FETCH_CURL_API_H */
