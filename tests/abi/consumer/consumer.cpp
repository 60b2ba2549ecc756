// The first device's name, through an installed libnvitop, from C++ (tests/abi/package.sh).
#include <iostream>
#include <memory>

#include <nvitop/nvitop.h>

int main() {
    nvt_context *raw = nullptr;
    if (nvt_open(nullptr, &raw) != NVT_OK) {
        std::cerr << "consumer: cannot open\n";
        return 1;
    }
    std::unique_ptr<nvt_context, void (*)(nvt_context *)> ctx(raw, nvt_close);
    nvt_device *device = nullptr;
    if (nvt_device_by_index(ctx.get(), 0, &device) != NVT_OK) {
        return 1;
    }
    std::cout << "C++: " << nvt_device_count(ctx.get()) << " devices, the first is "
              << nvt_device_info(device)->name << "\n";
    return 0;
}
