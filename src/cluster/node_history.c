/* A node's utilization history and its sparkline (node_history.h). */
#include "cluster/node_history.h"

#include <math.h>
#include <string.h>

static size_t index_of(long long slot) {
    long long i = slot % NODE_HISTORY_CELLS;
    return (size_t)(i < 0 ? i + NODE_HISTORY_CELLS : i);
}

void node_history_add(struct node_history *h, double step_s, double t, double value) {
    if (!(step_s > 0) || !isfinite(t) || !isfinite(value)) {
        return;
    }
    if (h->step_s != step_s) {
        memset(h, 0, sizeof *h);
        h->step_s = step_s;
    }
    long long slot = (long long)floor(t / step_s);
    size_t i = index_of(slot);
    if (h->slot[i] != slot || h->count[i] == 0) {
        h->slot[i] = slot;
        h->sum[i] = 0;
        h->count[i] = 0;
    }
    if (h->count[i] < (unsigned short)-1) {
        h->sum[i] += (float)value;
        h->count[i]++;
    }
}

void node_history_values(const struct node_history *h, double now, double out[NODE_HISTORY_CELLS]) {
    long long last = h->step_s > 0 && isfinite(now) ? (long long)floor(now / h->step_s) : 0;
    for (size_t k = 0; k < NODE_HISTORY_CELLS; k++) {
        long long slot = last - (long long)(NODE_HISTORY_CELLS - 1 - k);
        size_t i = index_of(slot);
        bool have = h->step_s > 0 && h->slot[i] == slot && h->count[i] > 0;
        out[k] = have ? (double)h->sum[i] / h->count[i] : NAN;
    }
}

void node_sparkline(char *buf, size_t size, const double *values, size_t n, bool ascii) {
    static const char *const bars[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    static const char ascii_bars[8] = {'_', '.', ':', '-', '=', '+', '*', '#'};
    size_t used = 0;
    for (size_t k = 0; k < n; k++) {
        double v = values[k];
        const char *text = " ";
        char one[2] = {0};
        if (!isnan(v)) {
            v = v < 0 ? 0 : v > 100 ? 100 : v;
            int level = (int)floor(v / 100.0 * 8.0); /* 8 levels of 12.5 % each; 100 % is the top */
            level = level > 7 ? 7 : level;
            if (ascii) {
                one[0] = ascii_bars[level];
                text = one;
            } else {
                text = bars[level];
            }
        }
        size_t len = strlen(text);
        if (used + len + 1 > size) {
            break;
        }
        memcpy(buf + used, text, len);
        used += len;
    }
    if (size > 0) {
        buf[used] = '\0';
    }
}
