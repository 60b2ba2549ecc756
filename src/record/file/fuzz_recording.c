/*
 * libFuzzer target for the recording reader: the input is written to a temporary file that the
 * reader opens, indexes and decodes frame by frame; the input is also decoded as one frame message
 * (the codec behind the container's checksums).  Any crash, leak or undefined behaviour is a bug:
 * bad files must give a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "record/codec/frame.h"
#include "record/file/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[] = "/tmp/fuzz_recording.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        return 0;
    }
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            break;
        }
        done += (size_t)n;
    }
    close(fd);
    char error[512];
    struct rec_reader *r = rec_reader_open(path, error, sizeof(error));
    if (r != NULL) {
        size_t count = rec_reader_count(r);
        for (size_t i = 0; i < count && i < 64; i++) {
            struct frame *frame = NULL;
            if (rec_reader_frame(r, i, &frame, error, sizeof(error))) {
                frame_free(frame);
            }
        }
        (void)rec_reader_find(r, 1.7e9);
        rec_reader_close(r);
    }
    unlink(path);
    struct frame *frame = NULL;
    if (frame_decode(data, size, &frame, error, sizeof(error))) {
        frame_free(frame);
    }
    return 0;
}
