/* libcurl loaded at run time (curl_api.h). */
#include "cluster/fetch/curl_api.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util/array.h"
#include "util/sys/dl_table.h"

/* Every entry point the cluster code calls, with where its address goes (all in libcurl 7.16 and
 * later, the soname's ABI 4); a library without one is refused as a whole rather than failing
 * later. */
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
    X(multi_socket_action, "curl_multi_socket_action")                                             \
    X(multi_assign, "curl_multi_assign")                                                           \
    X(multi_info_read, "curl_multi_info_read")                                                     \
    X(multi_cleanup, "curl_multi_cleanup")

#define ENTRY(field, name)                                                                         \
    {name, offsetof(struct curl_api, field), sizeof(((struct curl_api *)0)->field)},
static const struct dl_entry entries[] = {CURL_SYMBOLS(ENTRY)};
#undef ENTRY

static bool fail(struct curl_api *api, char *error, size_t size, const char *missing,
                 const char *what) {
    snprintf(error, size,
             "--hosts and --prometheus need libcurl (%s%s%s%s): install the libcurl4 package",
             missing != NULL ? "no " : "", missing != NULL ? missing : "", what,
             dl_library_path(CURL_API_ENV_LIBRARY, CURL_API_SONAME));
    if (api->dl != NULL) {
        dlclose(api->dl);
    }
    memset(api, 0, sizeof *api);
    return false;
}

bool curl_api_open(struct curl_api *api, char *error, size_t size) {
    memset(api, 0, sizeof *api);
    const char *missing = NULL;
    api->dl = dl_open_table(dl_library_path(CURL_API_ENV_LIBRARY, CURL_API_SONAME), entries,
                            ARRAY_SIZE(entries), api, &missing);
    if (api->dl == NULL) {
        return fail(api, error, size, missing, missing != NULL ? " in " : "");
    }
    if (api->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        return fail(api, error, size, NULL, "curl_global_init failed in ");
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
