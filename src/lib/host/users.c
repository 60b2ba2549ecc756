/* uid -> user name, looked up once per uid (passwd lookups can hit NSS, LDAP, the network). */
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux_internal.h"

/* The passwd name of uid into a fresh allocation, or its number when there is no entry. */
static char *lookup(uint32_t uid) {
    size_t size = 1024;
    for (int attempt = 0; attempt < 8; attempt++) {
        char *buf = malloc(size);
        if (buf == NULL) {
            return NULL;
        }
        struct passwd pw;
        struct passwd *result = NULL;
        int err = getpwuid_r((uid_t)uid, &pw, buf, size, &result);
        if (err == ERANGE) {
            free(buf);
            size *= 2;
            continue;
        }
        char *name = NULL;
        if (err == 0 && result != NULL && result->pw_name != NULL) {
            name = strdup(result->pw_name);
            free(buf);
            return name;
        }
        free(buf);
        break;
    }
    char number[16];
    snprintf(number, sizeof(number), "%" PRIu32, uid);
    return strdup(number);
}

const char *users_name(struct user_cache *cache, uint32_t uid) {
    for (size_t i = 0; i < cache->count; i++) {
        if (cache->entries[i].uid == uid) {
            return cache->entries[i].name;
        }
    }
    if (cache->count == cache->capacity) {
        size_t capacity = cache->capacity == 0 ? 8 : cache->capacity * 2;
        struct user_entry *grown = realloc(cache->entries, capacity * sizeof(*grown));
        if (grown == NULL) {
            return NULL;
        }
        cache->entries = grown;
        cache->capacity = capacity;
    }
    char *name = lookup(uid);
    if (name == NULL) {
        return NULL;
    }
    cache->entries[cache->count].uid = uid;
    cache->entries[cache->count].name = name;
    cache->count++;
    return name;
}

void users_fini(struct user_cache *cache) {
    for (size_t i = 0; i < cache->count; i++) {
        free(cache->entries[i].name);
    }
    free(cache->entries);
    memset(cache, 0, sizeof(*cache));
}
