/* libFuzzer target for nvt_parse_bytes(): any byte string must parse or be rejected cleanly, and
 * an accepted value must format without trouble. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/format.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    uint64_t value = 0;
    nvt_status st = nvt_parse_bytes(text, &value);
    if (st != NVT_OK && st != NVT_ERR_PARSE && st != NVT_ERR_OUT_OF_RANGE) {
        abort();
    }
    if (st == NVT_OK) {
        char out[64];
        size_t len = nvt_format_bytes(out, sizeof(out), value, 1);
        if (len >= sizeof(out) || strlen(out) != len) {
            abort();
        }
    }
    free(text);
    return 0;
}
