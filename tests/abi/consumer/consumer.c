/* The first device's name, through an installed libnvitop (tests/abi/package.sh). */
#include <stdio.h>

#include <nvitop/nvitop.h>

int main(void) {
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "consumer: %s\n", nvt_strerror(status));
        return 1;
    }
    nvt_device *device = NULL;
    status = nvt_device_by_index(ctx, 0, &device);
    if (status == NVT_OK) {
        printf("C: %u devices, the first is %s\n", nvt_device_count(ctx),
               nvt_device_info(device)->name);
    }
    nvt_close(ctx);
    return status == NVT_OK ? 0 : 1;
}
