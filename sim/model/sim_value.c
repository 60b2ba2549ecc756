#include "model/sim_value.h"

#include <math.h>
#include <string.h>

#define SIM_TWO_PI 6.283185307179586

static double clamp(double v, double lo, double hi) {
    if (v < lo) {
        return lo;
    }
    if (v > hi) {
        return hi;
    }
    return v;
}

/* The value of a schedule without repetition: flat before the first and after the last point,
 * linear in between. */
static double schedule_plain_at(const struct sim_num *num, double t_s) {
    const struct sim_point *p = num->points;
    size_t n = num->point_count;
    if (t_s <= p[0].time_s) {
        return p[0].value;
    }
    for (size_t i = 1; i < n; i++) {
        if (t_s <= p[i].time_s) {
            double span = p[i].time_s - p[i - 1].time_s;
            if (span <= 0.0) {
                return p[i].value;
            }
            double f = (t_s - p[i - 1].time_s) / span;
            return p[i - 1].value + f * (p[i].value - p[i - 1].value);
        }
    }
    return p[n - 1].value;
}

/* Maps t onto the schedule's time axis: before the first point the first value holds, after the
 * last one the last value holds, unless the schedule repeats. */
static double schedule_time(const struct sim_num *num, double t_s) {
    double first = num->points[0].time_s;
    double last = num->points[num->point_count - 1].time_s;
    if (num->repeat && last > first && t_s > last) {
        return first + fmod(t_s - first, last - first);
    }
    return t_s;
}

static double schedule_at(const struct sim_num *num, double t_s) {
    return schedule_plain_at(num, schedule_time(num, t_s));
}

double sim_value_at(const struct sim_num *num, double t_s) {
    double v = num->base;
    if (num->kind == SIM_NUM_SINE && num->period_s > 0.0) {
        v = num->base + num->amplitude * sin(SIM_TWO_PI * (t_s + num->phase_s) / num->period_s);
    } else if (num->kind == SIM_NUM_SCHEDULE && num->point_count > 0) {
        v = schedule_at(num, t_s);
    }
    return clamp(v, num->min, num->max);
}

/* The integral over [0, t_s] of a schedule without repetition, by the trapezoid rule, which is
 * exact for linear pieces.  Clamping is ignored: the loader keeps points inside the range. */
static double schedule_plain_integral(const struct sim_num *num, double t_s) {
    double total = 0.0;
    double prev_t = 0.0;
    double prev_v = schedule_plain_at(num, 0.0);
    for (size_t i = 0; i < num->point_count && num->points[i].time_s < t_s; i++) {
        const struct sim_point *p = &num->points[i];
        if (p->time_s > prev_t) {
            total += (p->time_s - prev_t) * (prev_v + p->value) / 2.0;
            prev_t = p->time_s;
            prev_v = p->value;
        }
    }
    return total + (t_s - prev_t) * (prev_v + schedule_plain_at(num, t_s)) / 2.0;
}

/* A repeating schedule is periodic after its last point: whole cycles are added at once. */
static double schedule_integral(const struct sim_num *num, double t_s) {
    double first = num->points[0].time_s;
    double last = num->points[num->point_count - 1].time_s;
    double cycle_s = last - first;
    if (!num->repeat || cycle_s <= 0.0 || t_s <= last) {
        return schedule_plain_integral(num, t_s);
    }
    double head = schedule_plain_integral(num, first);
    double cycle = schedule_plain_integral(num, last) - head;
    double cycles = floor((t_s - first) / cycle_s);
    double rest_s = t_s - first - cycles * cycle_s;
    return head + cycles * cycle + (schedule_plain_integral(num, first + rest_s) - head);
}

double sim_value_integral(const struct sim_num *num, double t_s) {
    if (t_s <= 0.0) {
        return 0.0;
    }
    if (num->kind == SIM_NUM_SINE && num->period_s > 0.0) {
        double w = SIM_TWO_PI / num->period_s;
        double wave = (cos(w * num->phase_s) - cos(w * (t_s + num->phase_s))) / w;
        return fmax(0.0, num->base * t_s + num->amplitude * wave);
    }
    if (num->kind == SIM_NUM_SCHEDULE && num->point_count > 0) {
        return fmax(0.0, schedule_integral(num, t_s));
    }
    return num->base * t_s;
}

nvmlReturn_t sim_value_uint(const struct sim_num *num, double t_s, unsigned int *out) {
    if (num->error != NVML_SUCCESS) {
        return num->error;
    }
    *out = (unsigned int)llround(sim_value_at(num, t_s));
    return NVML_SUCCESS;
}

nvmlReturn_t sim_value_mib_bytes(const struct sim_num *num, double t_s, unsigned long long *out) {
    if (num->error != NVML_SUCCESS) {
        return num->error;
    }
    *out = (unsigned long long)llround(sim_value_at(num, t_s) * 1048576.0);
    return NVML_SUCCESS;
}

nvmlReturn_t sim_copy_string(const char *text, char *buf, unsigned int length) {
    if (buf == NULL) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    size_t size = strlen(text) + 1;
    if (size > length) {
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    memcpy(buf, text, size);
    return NVML_SUCCESS;
}

nvmlReturn_t sim_copy_text(const struct sim_text *text, char *buf, unsigned int length) {
    if (buf == NULL) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    if (text->error != NVML_SUCCESS) {
        return text->error;
    }
    return sim_copy_string(text->value, buf, length);
}
