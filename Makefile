# Entry points for people; CMake does the building.  `make demo` and `make check` are the two
# commands of the README, and both start with `deps`, which installs missing Debian packages.

JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
BUILD    ?= build
ASAN     ?= build-asan
FUZZ     ?= build-fuzz
PREFIX   ?= /usr/local
SCENARIO ?= sim/scenarios/h100-8gpu.json
FUZZ_SECONDS ?= 20
BENCH_SECONDS ?= 60

DEB      ?= $(BUILD)/deb
WINDOWS  ?= build-windows

.PHONY: all deps build demo check test test-asan test-private fuzz lint format bench install \
	uninstall clean deb package-test windows windows-zip

all: build

deps:
	@sh scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) -DNVT_WERROR=ON -DCMAKE_INSTALL_PREFIX=$(PREFIX)
	cmake --build $(BUILD) -j $(JOBS)

# The most complete front end on the bundled 8-GPU machine, with stand-in processes that are
# stopped again when it exits.
demo: build
	@sh scripts/demo.sh $(BUILD) $(SCENARIO)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: deps
	cmake -S . -B $(ASAN) -DNVT_WERROR=ON -DNVT_SANITIZE=ON
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS)

# The suite again from a clone of HEAD under a 0700 directory (as a clone in /root is): the tests
# that run a program as another user must not depend on reaching the build tree.
test-private: deps
	sh scripts/test-private-clone.sh $(JOBS)

fuzz: deps
	cmake -S . -B $(FUZZ) -DCMAKE_C_COMPILER=clang -DNVT_FUZZ=ON -DNVT_BUILD_TESTS=OFF
	cmake --build $(FUZZ) -j $(JOBS)
	sh scripts/run-fuzzers.sh $(FUZZ) $(FUZZ_SECONDS)

# Benchmarks print figures and ratios against floors measured in the same run (never pass/fail).
bench: build
	sh scripts/bench.sh $(BUILD) $(BENCH_SECONDS)

lint:
	sh scripts/check-format.sh
	python3 scripts/check-layers.py
	python3 scripts/check-guards.py
	sh scripts/check-references.sh

format:
	sh scripts/check-format.sh --fix

# Debian packages (nvitop, libnvitop0, libnvitop-dev, nvitop-sim) built with debhelper into
# $(DEB), from a copy of the tree.
deb: deps
	@sh scripts/deps.sh scripts/debian-packages-deb.txt
	JOBS=$(JOBS) sh scripts/build-deb.sh $(DEB)

# lintian on the packages, then apt install on a pristine Debian 12 (a debootstrap chroot, cached
# in /var/cache/nvitop-tests) and `nvitop -1` on the simulator from the installed files.
package-test: deb
	sh tests/package/deb_test.sh $(DEB)

# Everything CI runs: style and layer rules, the normal build and its tests, the same from a
# clone under a 0700 directory, the sanitizer build and its tests, a short run of every fuzzer, and
# the Debian packages' test.
check: deps lint test test-private test-asan fuzz package-test
	@echo "make check: all passed"

# The library finds its helper program (nvitop-cuda-probe) under the prefix it was configured
# with, which `build` sets to $(PREFIX).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

uninstall:
	@test -f $(BUILD)/install_manifest.txt && xargs rm -fv < $(BUILD)/install_manifest.txt || true

# The Windows programs, nvitop.dll and the simulated driver's nvml.dll, cross-built with Debian's
# mingw-w64 into $(WINDOWS) (docs/windows.md); the zip packs them for people on Windows.
windows: deps
	cmake -S . -B $(WINDOWS) -DNVT_WERROR=ON -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake
	cmake --build $(WINDOWS) -j $(JOBS)

windows-zip: windows
	sh scripts/windows-zip.sh $(WINDOWS)

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ) $(WINDOWS)
