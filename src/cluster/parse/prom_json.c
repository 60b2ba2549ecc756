/* Prometheus API answers without a JSON tree (prom_json.h), walked with json_scan: the members
 * nvitop wants are read, every other value is checked and skipped. */
#include "cluster/parse/prom_json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/parse/decimal.h"
#include "cluster/parse/json_scan.h"

/* An object of string values into labels (others skipped). */
static bool labels(struct json_scan *s, struct prom_label *out, size_t *count) {
    *count = 0;
    if (!jscan_expect(s, '{', "expected an object of labels")) {
        return false;
    }
    bool first = true;
    char *key;
    while (jscan_member(s, &first, &key)) {
        const char *value = jscan_string_or_skip(s);
        if (value != NULL && *count < PROM_JSON_LABELS) {
            out[(*count)++] = (struct prom_label){key, value};
        }
    }
    return s->error == NULL;
}

/* [time, "value"] */
static bool sample(struct json_scan *s, double *time, double *value) {
    if (!jscan_expect(s, '[', "expected [time, \"value\"]") || !jscan_number(s, time) ||
        !jscan_expect(s, ',', "expected [time, \"value\"]")) {
        return false;
    }
    const char *text = jscan_string(s);
    if (text == NULL || !jscan_expect(s, ']', "expected [time, \"value\"]")) {
        return false;
    }
    if (decimal_short(text, value)) {
        return true;
    }
    char *end;
    double v = strtod(text, &end);
    *value = *text != '\0' && *end == '\0' ? v : NAN;
    return true;
}

static bool sample_value(struct json_scan *s, struct prom_json_series *series) {
    return sample(s, &series->time, &series->value);
}

/* [[time, "value"], ...]: the first PROM_JSON_POINTS kept. */
static bool sample_values(struct json_scan *s, struct prom_json_series *series) {
    if (!jscan_expect(s, '[', "expected an array of [time, \"value\"]")) {
        return false;
    }
    bool first = true;
    while (jscan_element(s, &first)) {
        double time, value;
        if (!sample(s, &time, &value)) {
            return false;
        }
        if (series->point_count < PROM_JSON_POINTS) {
            series->point_time[series->point_count] = time;
            series->point_value[series->point_count++] = value;
        }
    }
    return s->error == NULL;
}

struct walk {
    prom_json_series_fn *series;
    prom_json_target_fn *target;
    void *context;
};

static bool one_series(struct json_scan *s, const struct walk *w) {
    /* Only the counts and the instant sample are set: what they count is filled as read (a
     * whole zeroed series per answer line would cost more than reading it). */
    struct prom_json_series series;
    series.label_count = 0;
    series.point_count = 0;
    series.time = series.value = NAN;
    if (!jscan_expect(s, '{', "expected a series object")) {
        return false;
    }
    bool first = true;
    char *key;
    while (jscan_member(s, &first, &key)) {
        bool ok = strcmp(key, "metric") == 0   ? labels(s, series.labels, &series.label_count)
                  : strcmp(key, "value") == 0  ? sample_value(s, &series)
                  : strcmp(key, "values") == 0 ? sample_values(s, &series)
                                               : jscan_skip_value(s, 1);
        if (!ok) {
            return false;
        }
    }
    if (s->error == NULL) {
        w->series(&series, w->context);
    }
    return s->error == NULL;
}

static bool one_target(struct json_scan *s, const struct walk *w) {
    struct prom_json_target target = {0};
    if (!jscan_expect(s, '{', "expected a target object")) {
        return false;
    }
    bool first = true;
    char *key;
    while (jscan_member(s, &first, &key)) {
        if (strcmp(key, "labels") == 0) {
            struct prom_label l[PROM_JSON_LABELS];
            size_t n;
            if (!labels(s, l, &n)) {
                return false;
            }
            for (size_t i = 0; i < n; i++) {
                if (strcmp(l[i].name, "instance") == 0) {
                    target.instance = l[i].value;
                } else if (strcmp(l[i].name, "job") == 0) {
                    target.job = l[i].value;
                }
            }
        } else if (strcmp(key, "health") == 0) {
            target.health = jscan_string_or_skip(s);
        } else if (strcmp(key, "lastError") == 0) {
            target.last_error = jscan_string_or_skip(s);
        } else if (strcmp(key, "lastScrape") == 0) {
            target.last_scrape = jscan_string_or_skip(s);
        } else if (!jscan_skip_value(s, 1)) {
            return false;
        }
        if (s->error != NULL) {
            return false;
        }
    }
    if (s->error == NULL) {
        w->target(&target, w->context);
    }
    return s->error == NULL;
}

/* data: {..., "<list>": [items], ...}; items read by one_series or one_target. */
static bool data(struct json_scan *s, const struct walk *w) {
    const char *list = w->series != NULL ? "result" : "activeTargets";
    if (!jscan_expect(s, '{', "expected \"data\" to be an object")) {
        return false;
    }
    bool first = true, seen = false;
    char *key;
    while (jscan_member(s, &first, &key)) {
        if (strcmp(key, list) != 0) {
            if (!jscan_skip_value(s, 1)) {
                return false;
            }
            continue;
        }
        seen = true;
        if (!jscan_expect(s, '[', "expected an array of results")) {
            return false;
        }
        bool first_item = true;
        while (jscan_element(s, &first_item)) {
            if (!(w->series != NULL ? one_series(s, w) : one_target(s, w))) {
                return false;
            }
        }
    }
    return s->error == NULL && (seen || jscan_fail(s, "no result list in \"data\""));
}

static bool walk(char *body, size_t len, const struct walk *w, char *err, size_t errlen) {
    struct json_scan s = {body, body, body + len, NULL};
    const char *status = NULL, *message = NULL;
    bool first = true, seen_data = false;
    char *key;
    if (jscan_expect(&s, '{', "expected an object")) {
        while (jscan_member(&s, &first, &key)) {
            bool ok = true;
            if (strcmp(key, "status") == 0) {
                status = jscan_string_or_skip(&s);
            } else if (strcmp(key, "error") == 0) {
                message = jscan_string_or_skip(&s);
            } else if (strcmp(key, "data") == 0) {
                seen_data = true;
                ok = data(&s, w);
            } else {
                ok = jscan_skip_value(&s, 1);
            }
            if (!ok || s.error != NULL) {
                break;
            }
        }
    }
    jscan_skip_blanks(&s);
    if (s.error == NULL && s.p != s.end) {
        jscan_fail(&s, "text after the answer");
    }
    if (s.error != NULL) {
        snprintf(err, errlen, "not a Prometheus API answer (JSON: %s at byte %zu)", s.error,
                 (size_t)(s.p - s.start));
        return false;
    }
    if (status != NULL && strcmp(status, "success") != 0 && message != NULL) {
        snprintf(err, errlen, "Prometheus answered an error: %s", message);
        return false;
    }
    if (status == NULL || strcmp(status, "success") != 0) {
        snprintf(err, errlen, "not a Prometheus API answer (no \"status\": \"success\")");
        return false;
    }
    if (!seen_data) {
        snprintf(err, errlen, "not a Prometheus API answer (no \"data\")");
        return false;
    }
    return true;
}

bool prom_json_vector(char *body, size_t len, prom_json_series_fn *series, void *context, char *err,
                      size_t errlen) {
    struct walk w = {series, NULL, context};
    return walk(body, len, &w, err, errlen);
}

bool prom_json_targets(char *body, size_t len, prom_json_target_fn *target, void *context,
                       char *err, size_t errlen) {
    struct walk w = {NULL, target, context};
    return walk(body, len, &w, err, errlen);
}

const char *prom_json_label(const struct prom_json_series *series, const char *name) {
    for (size_t i = 0; i < series->label_count; i++) {
        if (strcmp(series->labels[i].name, name) == 0) {
            return series->labels[i].value;
        }
    }
    return NULL;
}
