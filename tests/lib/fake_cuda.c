/*
 * A stand-in for the CUDA driver library (libcuda.so.1), for testing the helper process that asks
 * CUDA which devices a CUDA_VISIBLE_DEVICES value selects.  The helper gets a minimal
 * environment, so the test configures this library with a file beside it (the path it was loaded
 * by), fake_cuda.conf:
 *   uuids=<UUIDs, 32 hex digits with dashes, comma-separated, in CUDA order>
 *   init_error=<code cuInit returns>          (optional)
 * CUDA_VISIBLE_DEVICES selects among the devices by ordinal or by a "GPU-" prefix of the UUID,
 * stopping at the first entry it cannot resolve.  cuInit also writes fake_cuda.report there: the
 * descriptors open in the process ("fds=0,1,2") and the names in its environment ("env=A,B"), so
 * that the test sees what the helper inherited.
 */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

#define MAX_DEVICES 16

struct fake_uuid {
    unsigned char bytes[16];
};

int cuInit(unsigned int flags);
int cuDeviceGetCount(int *count);
int cuDeviceGet(int *device, int ordinal);
int cuDeviceGetUuid_v2(struct fake_uuid *uuid, int device);

static char uuids[MAX_DEVICES][40];
static int all_count;
static int visible[MAX_DEVICES];
static int visible_count;

static char conf_uuids[MAX_DEVICES * 40];
static char conf_init_error[16];

/* The path of name beside this library. */
static void beside(char *path, size_t size, const char *name) {
    Dl_info info;
    const char *self = dladdr((void *)&beside, &info) != 0 ? info.dli_fname : "";
    const char *slash = strrchr(self, '/');
    int dir_len = slash != NULL ? (int)(slash - self) : 1;
    snprintf(path, size, "%.*s/%s", dir_len, slash != NULL ? self : ".", name);
}

static void load_conf(void) {
    char path[4096];
    beside(path, sizeof(path), "fake_cuda.conf");
    conf_uuids[0] = conf_init_error[0] = '\0';
    FILE *f = fopen(path, "r");
    char line[sizeof(conf_uuids) + 16];
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "uuids=", 6) == 0) {
            snprintf(conf_uuids, sizeof(conf_uuids), "%.*s", (int)sizeof(conf_uuids) - 1, line + 6);
        } else if (strncmp(line, "init_error=", 11) == 0) {
            snprintf(conf_init_error, sizeof(conf_init_error), "%.*s",
                     (int)sizeof(conf_init_error) - 1, line + 11);
        }
    }
    if (f != NULL) {
        fclose(f);
    }
}

static void write_report(void) {
    char path[4096];
    beside(path, sizeof(path), "fake_cuda.report");
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return;
    }
    int own = fileno(f);
    DIR *dir = opendir("/proc/self/fd");
    int listing = dir != NULL ? dirfd(dir) : -1;
    fputs("fds=", f);
    const char *sep = "";
    for (struct dirent *e = dir != NULL ? readdir(dir) : NULL; e != NULL; e = readdir(dir)) {
        if (e->d_name[0] != '.' && atoi(e->d_name) != own && atoi(e->d_name) != listing) {
            fprintf(f, "%s%s", sep, e->d_name);
            sep = ",";
        }
    }
    if (dir != NULL) {
        closedir(dir);
    }
    fputs("\nenv=", f);
    sep = "";
    for (char **e = environ; *e != NULL; e++) {
        fprintf(f, "%s%.*s", sep, (int)strcspn(*e, "="), *e);
        sep = ",";
    }
    fputs("\n", f);
    fclose(f);
}

static void load_uuids(void) {
    const char *list = conf_uuids;
    all_count = 0;
    while (list != NULL && *list != '\0' && all_count < MAX_DEVICES) {
        size_t len = strcspn(list, ",");
        snprintf(uuids[all_count++], sizeof(uuids[0]), "%.*s", (int)len, list);
        list += len + (list[len] == ',');
    }
}

static int resolve(const char *item, size_t len) {
    if (len > 0 && isdigit((unsigned char)item[0])) {
        int ordinal = atoi(item);
        return ordinal < all_count ? ordinal : -1;
    }
    if (len > 4 && strncmp(item, "GPU-", 4) == 0) {
        for (int i = 0; i < all_count; i++) {
            if (strncmp(uuids[i], item + 4, len - 4) == 0) {
                return i;
            }
        }
    }
    return -1;
}

int cuInit(unsigned int flags) {
    (void)flags;
    load_conf();
    write_report();
    if (conf_init_error[0] != '\0') {
        return atoi(conf_init_error);
    }
    load_uuids();
    const char *value = getenv("CUDA_VISIBLE_DEVICES");
    visible_count = 0;
    if (value == NULL) {
        for (int i = 0; i < all_count; i++) {
            visible[visible_count++] = i;
        }
        return 0;
    }
    while (visible_count < MAX_DEVICES) {
        size_t len = strcspn(value, ",");
        int found = resolve(value, len);
        if (found < 0) {
            break;
        }
        visible[visible_count++] = found;
        if (value[len] == '\0') {
            break;
        }
        value += len + 1;
    }
    return 0;
}

int cuDeviceGetCount(int *count) {
    *count = visible_count;
    return 0;
}

int cuDeviceGet(int *device, int ordinal) {
    if (ordinal < 0 || ordinal >= visible_count) {
        return 101;
    }
    *device = visible[ordinal];
    return 0;
}

int cuDeviceGetUuid_v2(struct fake_uuid *uuid, int device) {
    const char *text = uuids[device];
    size_t n = 0;
    for (size_t i = 0; text[i] != '\0' && n < 16; i++) {
        if (text[i] == '-') {
            continue;
        }
        unsigned int byte = 0;
        if (sscanf(text + i, "%2x", &byte) != 1) {
            return 1;
        }
        uuid->bytes[n++] = (unsigned char)byte;
        i++;
    }
    return n == 16 ? 0 : 1;
}

/* The CUDA runtime's version query too (libcudart), so that one stand-in library serves
 * nvt_cuda_runtime_version(): $FAKE_CUDART_VERSION, else 12040; a negative value fails. */
int cudaRuntimeGetVersion(int *version);

int cudaRuntimeGetVersion(int *version) {
    const char *text = getenv("FAKE_CUDART_VERSION");
    int value = text != NULL ? atoi(text) : 12040;
    if (value < 0) {
        return 35; /* cudaErrorInsufficientDriver */
    }
    *version = value;
    return 0;
}
