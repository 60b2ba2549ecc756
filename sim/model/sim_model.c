#include "model/sim_model.h"

#include <stdlib.h>

void sim_model_free(struct sim_model *model) {
    if (model == NULL) {
        return;
    }
    for (size_t i = 0; i < model->block_count; i++) {
        free(model->blocks[i]);
    }
    free(model->blocks);
    free(model);
}
