/*
 * Loading and checking the TLS files of the command line before the server starts, so that an
 * unreadable file, a key that does not match its certificate, or a CA file without certificates
 * is reported clearly at start-up instead of failing every handshake later.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_TLS_FILES_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_TLS_FILES_H

#include <stddef.h>

struct tls_files {
    char *cert_pem; /* NULL when TLS is off */
    char *key_pem;
    char *trust_pem; /* NULL without mutual TLS; a directory's PEM files concatenated */
};

/* Read and check the files (any argument may be NULL).  0 on success; otherwise 1 with a message
 * in error (the files read so far freed). */
int tls_files_load(const char *certfile, const char *keyfile, const char *cafile,
                   const char *capath, struct tls_files *out, char *error, size_t error_size);

void tls_files_free(struct tls_files *files);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_TLS_FILES_H */
