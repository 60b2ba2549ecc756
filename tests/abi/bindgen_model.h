/*
 * A small reader of bindgen's Rust output (the NVML bindings in Debian's
 * librust-nvml-wrapper-sys-dev): integer constants, type aliases, #[repr(C)] structs and unions,
 * and their C layout computed from the Rust field types.  Test code only.
 */
#ifndef NVITOP_TESTS_ABI_BINDGEN_MODEL_H
#define NVITOP_TESTS_ABI_BINDGEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

struct bindgen_model;

/* Parse the file at path.  Returns NULL (with a message in err) when it cannot be read. */
struct bindgen_model *bindgen_model_load(const char *path, char *err, size_t err_size);
void bindgen_model_free(struct bindgen_model *model);

/* The value of an integer constant ("NVML_DEVICE_UUID_BUFFER_SIZE",
 * "nvmlReturn_enum_NVML_SUCCESS"); false when there is none. */
bool bindgen_model_constant(const struct bindgen_model *model, const char *name, long long *value);

/* Whether a struct or union of that name exists. */
bool bindgen_model_has_record(const struct bindgen_model *model, const char *name);

/* C size of a type (record, alias, primitive, array, pointer); false when it cannot be laid
 * out (message in err). */
bool bindgen_model_sizeof(const struct bindgen_model *model, const char *type, size_t *size,
                          char *err, size_t err_size);

/* Offset and size of a field of a record; false when the record or field is unknown. */
bool bindgen_model_field(const struct bindgen_model *model, const char *record, const char *field,
                         size_t *offset, size_t *size, char *err, size_t err_size);

/* Number of fields of a record and the name of field i (for "every field" checks). */
size_t bindgen_model_field_count(const struct bindgen_model *model, const char *record);
const char *bindgen_model_field_name(const struct bindgen_model *model, const char *record,
                                     size_t i);

#endif /* NVITOP_TESTS_ABI_BINDGEN_MODEL_H */
