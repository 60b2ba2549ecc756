/* The --hosts list (hosts.h). */
#include "cluster/fetch/hosts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text/str.h"
#include "util/xalloc.h"

/* Hosts more than this are a mistake (a wrong file), and each costs a connection per refresh. */
#define HOSTS_MAX 10000

static bool add_host(const char *text, size_t len, struct node **nodes, size_t *count, size_t *cap,
                     char *err, size_t errlen) {
    while (len > 0 && (*text == ' ' || *text == '\t')) {
        text++;
        len--;
    }
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r')) {
        len--;
    }
    if (len == 0) {
        return true;
    }
    if (len >= sizeof((*nodes)->address)) {
        snprintf(err, errlen, "host name too long: '%.40s...'", text);
        return false;
    }
    if (*count == HOSTS_MAX) {
        snprintf(err, errlen, "more than %d hosts", HOSTS_MAX);
        return false;
    }
    if (*count == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *nodes = xrealloc(*nodes, *cap * sizeof **nodes);
    }
    struct node *n = &(*nodes)[(*count)++];
    memset(n, 0, sizeof *n);
    memcpy(n->address, text, len);
    n->address[len] = '\0';
    for (const char *c = n->address; *c != '\0'; c++) {
        if ((unsigned char)*c <= ' ' || *c == '"' || *c == '\\') {
            snprintf(err, errlen, "invalid host: '%s'", n->address);
            return false;
        }
    }
    const char *scheme_end = strstr(n->address, "://");
    if (scheme_end != NULL) {
        if (!str_starts_with(n->address, "http://") && !str_starts_with(n->address, "https://")) {
            snprintf(err, errlen, "unsupported scheme (http or https only): '%s'", n->address);
            return false;
        }
        /* A URL without a path reads /metrics, as a bare host:port does. */
        bool has_path = strchr(scheme_end + 3, '/') != NULL;
        snprintf(n->url, sizeof n->url, "%s%s", n->address, has_path ? "" : "/metrics");
    } else {
        /* host:port is plain HTTP whatever the TLS options (a fleet may mix plain and TLS nodes:
         * those are written https://); a path after it is used as given. */
        bool has_path = strchr(n->address, '/') != NULL;
        snprintf(n->url, sizeof n->url, "http://%s%s", n->address, has_path ? "" : "/metrics");
    }
    return true;
}

static bool add_list(const char *text, const char *seps, struct node **nodes, size_t *count,
                     size_t *cap, char *err, size_t errlen) {
    while (*text != '\0') {
        size_t len = strcspn(text, seps);
        const char *hash = memchr(text, '#', len);
        size_t used = hash != NULL ? (size_t)(hash - text) : len;
        if (!add_host(text, used, nodes, count, cap, err, errlen)) {
            return false;
        }
        text += len;
        if (*text != '\0') {
            text++;
        }
    }
    return true;
}

bool hosts_parse(const char *spec, struct node **nodes, size_t *count, char *err, size_t errlen) {
    *nodes = NULL;
    *count = 0;
    size_t cap = 0;
    bool ok;
    if (spec[0] == '@') {
        FILE *f = fopen(spec + 1, "r");
        if (f == NULL) {
            snprintf(err, errlen, "cannot read hosts file '%s': %s", spec + 1, strerror(errno));
            return false;
        }
        char *line = NULL;
        size_t size = 0;
        ok = true;
        while (ok && getline(&line, &size, f) >= 0) {
            line[strcspn(line, "\n")] = '\0';
            ok = add_list(line, ",", nodes, count, &cap, err, errlen);
        }
        free(line);
        fclose(f);
    } else {
        ok = add_list(spec, ",", nodes, count, &cap, err, errlen);
    }
    if (ok && *count == 0) {
        snprintf(err, errlen, "no hosts in '%s'", spec);
        ok = false;
    }
    if (!ok) {
        free(*nodes);
        *nodes = NULL;
        *count = 0;
    }
    return ok;
}
