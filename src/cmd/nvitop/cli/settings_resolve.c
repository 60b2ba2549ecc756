/*
 * Settings precedence (settings_resolve.h).
 */
#include "cmd/nvitop/cli/settings_resolve.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/xalloc.h"

static void print_warning(void *context, const char *file, unsigned line, const char *message) {
    (void)context;
    if (line > 0) {
        fprintf(stderr, "%s:%u: %s\n", file, line, message);
    } else {
        fprintf(stderr, "%s: %s\n", file, message);
    }
}

static void sorted_pair(const uint32_t in[2], uint32_t *low, uint32_t *high) {
    *low = in[0] < in[1] ? in[0] : in[1];
    *high = in[0] < in[1] ? in[1] : in[0];
}

/* The command line and the environment, as nvitop_options_parse() merged them. */
static void overlay_options(const struct nvitop_options *o, struct tui_settings *s) {
    if (o->mode_decided) {
        s->mode = o->mode;
    }
    if (o->colorful_decided) {
        s->colorful = o->colorful;
    }
    if (o->light_decided) {
        s->light = o->light;
    }
    if (o->interval_s > 0.0) {
        s->interval_s = o->interval_s;
    }
    if (o->gpu_thresh_given) {
        sorted_pair(o->gpu_thresh, &s->thresholds.gpu_low, &s->thresholds.gpu_high);
    }
    if (o->mem_thresh_given) {
        sorted_pair(o->mem_thresh, &s->thresholds.mem_low, &s->thresholds.mem_high);
    }
}

void nvitop_settings_resolve(const struct nvitop_options *options, struct tui_settings *out,
                             char **save_path) {
    tui_settings_defaults(out);
    char *user = tui_settings_user_path();
    if (options->config_path != NULL) {
        /* Asked for by name: a missing file is worth a warning. */
        tui_settings_load(out, options->config_path, false, print_warning, NULL);
        free(user);
        user = xstrdup(options->config_path);
    } else if (!options->no_config) {
        tui_settings_load(out, tui_settings_system_path(), true, print_warning, NULL);
        if (user != NULL) {
            tui_settings_load(out, user, true, print_warning, NULL);
        }
    }
    overlay_options(options, out);
    *save_path = user;
}
