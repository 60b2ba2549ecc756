/*
 * A driver with almost nothing: init, shutdown, one device with a name and nothing else, for
 * testing that the library copes with missing entry points and reports them.  It declares its few
 * entry points itself (it is a stand-in for a foreign driver, not a user of our ABI header).
 */
#include <string.h>

typedef struct minimal_device *nvmlDevice_t;

int nvmlInit(void);
int nvmlShutdown(void);
int nvmlDeviceGetCount(unsigned int *count);
int nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device);
int nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length);

static struct minimal_device { int unused; } the_device;

int nvmlInit(void) {
    return 0;
}

int nvmlShutdown(void) {
    return 0;
}

int nvmlDeviceGetCount(unsigned int *count) {
    *count = 1;
    return 0;
}

int nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device) {
    if (index != 0) {
        return 2; /* NVML_ERROR_INVALID_ARGUMENT */
    }
    *device = &the_device;
    return 0;
}

int nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    static const char text[] = "Minimal GPU";
    if (device != &the_device || length < sizeof(text)) {
        return 2;
    }
    memcpy(name, text, sizeof(text));
    return 0;
}
