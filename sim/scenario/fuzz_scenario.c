/*
 * libFuzzer target for the scenario parser: any input must either load or be rejected with one
 * "<name>:<line>:<column>: <message>" line, never crash, leak or hang.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct sim_model *model = NULL;
    char *message = NULL;
    nvmlReturn_t ret = scenario_parse("fuzz.json", (const char *)data, size, &model, &message);
    if (ret == NVML_ERROR_UNKNOWN && (message == NULL || strncmp(message, "fuzz.json:", 10) != 0 ||
                                      strchr(message, '\n') != NULL)) {
        abort();
    }
    sim_model_free(model);
    free(message);
    return 0;
}
