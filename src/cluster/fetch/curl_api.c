/* libcurl loaded at run time (curl_api.h). */
#include "cluster/fetch/curl_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sys/dl.h"

/* Every entry point the cluster code calls, with where its address goes.  curl_multi_poll is the
 * newest (7.66, 2019); an older library is refused as a whole rather than failing later. */
#define CURL_SYMBOLS(X)                                                                            \
    X(global_init, "curl_global_init")                                                             \
    X(global_cleanup, "curl_global_cleanup")                                                       \
    X(easy_init, "curl_easy_init")                                                                 \
    X(easy_setopt, "curl_easy_setopt")                                                             \
    X(easy_perform, "curl_easy_perform")                                                           \
    X(easy_getinfo, "curl_easy_getinfo")                                                           \
    X(easy_cleanup, "curl_easy_cleanup")                                                           \
    X(easy_strerror, "curl_easy_strerror")                                                         \
    X(easy_escape, "curl_easy_escape")                                                             \
    X(free, "curl_free")                                                                           \
    X(multi_init, "curl_multi_init")                                                               \
    X(multi_setopt, "curl_multi_setopt")                                                           \
    X(multi_add_handle, "curl_multi_add_handle")                                                   \
    X(multi_remove_handle, "curl_multi_remove_handle")                                             \
    X(multi_perform, "curl_multi_perform")                                                         \
    X(multi_poll, "curl_multi_poll")                                                               \
    X(multi_info_read, "curl_multi_info_read")                                                     \
    X(multi_cleanup, "curl_multi_cleanup")

static const char *library_path(void) {
    const char *env = secure_getenv(CURL_API_ENV_LIBRARY);
    return env != NULL && env[0] != '\0' ? env : CURL_API_SONAME;
}

static bool fail(struct curl_api *api, char *error, size_t size, const char *what) {
    snprintf(error, size,
             "--hosts and --prometheus need libcurl (%s%s): install the libcurl4 package", what,
             library_path());
    if (api->dl != NULL) {
        dlclose(api->dl);
    }
    memset(api, 0, sizeof *api);
    return false;
}

bool curl_api_open(struct curl_api *api, char *error, size_t size) {
    memset(api, 0, sizeof *api);
    /* RTLD_LOCAL: its symbols (and OpenSSL's) stay out of the global namespace. */
    api->dl = dlopen(library_path(), RTLD_NOW | RTLD_LOCAL);
    if (api->dl == NULL) {
        return fail(api, error, size, "");
    }
#define LOOK_UP(field, name)                                                                       \
    if (!dl_function(api->dl, name, &api->field, sizeof api->field)) {                             \
        return fail(api, error, size, "no " name " in ");                                          \
    }
    CURL_SYMBOLS(LOOK_UP)
#undef LOOK_UP
    if (api->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        return fail(api, error, size, "curl_global_init failed in ");
    }
    return true;
}

void curl_api_close(struct curl_api *api) {
    if (api->dl == NULL) {
        return;
    }
    api->global_cleanup();
    dlclose(api->dl);
    memset(api, 0, sizeof *api);
}
