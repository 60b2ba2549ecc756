/* The TLS files of the command line (tls_files.h). */
#include "tls_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sys/file.h"
#include "util/text/strbuf.h"

#define PEM_CAP (4u << 20) /* a certificate bundle is kilobytes; anything huge is a mistake */

static int read_pem(const char *path, char **out, char *error, size_t error_size) {
    size_t len = 0;
    int err = file_read_at(AT_FDCWD, path, PEM_CAP, out, &len);
    if (err != 0) {
        snprintf(error, error_size, "cannot read `%s`: %s", path, strerror(err));
        return 1;
    }
    return 0;
}

/* The PEM files of a directory, concatenated in name order (as a CA directory is meant). */
static int read_pem_dir(const char *path, char **out, char *error, size_t error_size) {
    struct dirent **names = NULL;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        snprintf(error, error_size, "cannot read `%s`: %s", path, strerror(errno));
        return 1;
    }
    struct strbuf all = STRBUF_INIT;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        char file[4096];
        char *text = NULL;
        size_t len = 0;
        snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
        if (names[i]->d_name[0] != '.' && file_read_at(AT_FDCWD, file, PEM_CAP, &text, &len) == 0) {
            if (strstr(text, "-----BEGIN CERTIFICATE-----") != NULL) {
                ok = strbuf_append(&all, text, len) && strbuf_append_char(&all, '\n') && ok;
            }
            free(text);
        }
        free(names[i]);
    }
    free(names);
    if (!ok) {
        strbuf_fini(&all);
        snprintf(error, error_size, "out of memory");
        return 1;
    }
    *out = strbuf_detach(&all);
    return 0;
}

static int check_pair(const struct tls_files *files, const char *certfile, const char *keyfile,
                      const char *ca_name, char *error, size_t error_size) {
    gnutls_certificate_credentials_t creds;
    if (gnutls_certificate_allocate_credentials(&creds) != GNUTLS_E_SUCCESS) {
        snprintf(error, error_size, "out of memory");
        return 1;
    }
    gnutls_datum_t cert = {(unsigned char *)files->cert_pem, (unsigned)strlen(files->cert_pem)};
    gnutls_datum_t key = {(unsigned char *)files->key_pem, (unsigned)strlen(files->key_pem)};
    int rc = gnutls_certificate_set_x509_key_mem(creds, &cert, &key, GNUTLS_X509_FMT_PEM);
    if (rc < 0) {
        snprintf(error, error_size, "Failed to load TLS certificate/key from `%s` / `%s`: %s",
                 certfile, keyfile, gnutls_strerror(rc));
    }
    int result = rc < 0;
    if (result == 0 && files->trust_pem != NULL) {
        gnutls_datum_t ca = {(unsigned char *)files->trust_pem, (unsigned)strlen(files->trust_pem)};
        rc = gnutls_certificate_set_x509_trust_mem(creds, &ca, GNUTLS_X509_FMT_PEM);
        if (rc <= 0) {
            snprintf(error, error_size, "Failed to load client CA bundle from `%s`: %s", ca_name,
                     rc < 0 ? gnutls_strerror(rc) : "no certificate found");
            result = 1;
        }
    }
    gnutls_certificate_free_credentials(creds);
    return result;
}

int tls_files_load(const char *certfile, const char *keyfile, const char *cafile,
                   const char *capath, struct tls_files *out, char *error, size_t error_size) {
    memset(out, 0, sizeof(*out));
    if (certfile == NULL) {
        return 0;
    }
    int rc = read_pem(certfile, &out->cert_pem, error, error_size);
    if (rc == 0) {
        rc = read_pem(keyfile, &out->key_pem, error, error_size);
    }
    if (rc == 0 && cafile != NULL) {
        rc = read_pem(cafile, &out->trust_pem, error, error_size);
    }
    if (rc == 0 && capath != NULL) {
        /* Both options: the bundle's CAs and the directory's, as OpenSSL's
         * load_verify_locations(cafile, capath) trusts both. */
        char *dir_pem = NULL;
        rc = read_pem_dir(capath, &dir_pem, error, error_size);
        if (rc == 0 && out->trust_pem == NULL) {
            out->trust_pem = dir_pem;
        } else if (rc == 0) {
            size_t a = strlen(out->trust_pem);
            size_t b = strlen(dir_pem);
            char *both = realloc(out->trust_pem, a + b + 2);
            if (both == NULL) {
                snprintf(error, error_size, "out of memory");
                rc = 1;
            } else {
                both[a] = '\n';
                memcpy(both + a + 1, dir_pem, b + 1);
                out->trust_pem = both;
            }
            free(dir_pem);
        }
    }
    if (rc == 0) {
        rc =
            check_pair(out, certfile, keyfile, cafile != NULL ? cafile : capath, error, error_size);
    }
    if (rc != 0) {
        tls_files_free(out);
    }
    return rc;
}

void tls_files_free(struct tls_files *files) {
    free(files->cert_pem);
    free(files->key_pem);
    free(files->trust_pem);
    memset(files, 0, sizeof(*files));
}
