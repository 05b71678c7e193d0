# Two user commands, each doing all set-up on a fresh Debian 12 machine as root:
#   make demo   install missing packages, build Release, run zarf-state on the bundled samples
#   make test   the same set-up, then the whole test suite through ctest
# ZS_SANITIZE=ON builds with AddressSanitizer + UBSan (into build-asan/).
#   make package  build dist/: a .deb (Depends: Debian 12 packages) and a .tar.gz whose binary
#               links only glibc dynamically, with SHA256SUMS; then check both (lintian too)
#               (packaging/check_packages.sh; docs/install.md)
#   make fuzz   build the libFuzzer targets with clang-14 into build-fuzz/ and run
#               each for FUZZ_SECONDS (default 60); fails on a finding (fuzz/README.md)

ZS_SANITIZE ?= OFF
BUILD ?= $(if $(filter ON,$(ZS_SANITIZE)),build-asan,build)
JOBS ?= $(shell nproc)
PACKAGES := cmake make g++ pkg-config libssl-dev libcli11-dev libgtest-dev libgmock-dev \
	libbenchmark-dev libsimdjson-dev libxxhash-dev libzstd-dev librocksdb-dev \
	libprotobuf-dev protobuf-compiler zlib1g-dev golang-go libfyaml-dev qemu-user \
	man-db bash-completion zsh fish dpkg-dev file python3 chromium ccache

# Every build folder compiles through ccache, with paths taken relative to
# this directory: a rebuild, another build folder with the same flags (the
# .deb's and make test's Release build) and a fresh checkout elsewhere reuse
# the objects already compiled.
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
LAUNCHER := -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache

FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
FUZZ_TARGETS ?=
FUZZ_PACKAGES := clang-14 libclang-rt-14-dev llvm-14 python3

# make package: the .deb is packed from the Release build make test uses
# (portable by default); the tarball's binary is a second, static build that
# compiles simdjson from Debian's source package
# (packaging/fetch_simdjson_source.sh), which Debian 12 ships as .so only.
DIST ?= dist
PACKAGE_FLAGS := -DCMAKE_BUILD_TYPE=Release -DZS_NATIVE=OFF -DZS_BUILD_TESTS=OFF \
	-DZS_BUILD_BENCH=OFF -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON

.PHONY: demo test package fuzz _deps _build

# The program only, its compiler output kept in a log shown on failure: the
# demo starts in a minute and prints only what zarf-state prints.
demo: _deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(LAUNCHER) >/dev/null
	@echo "building zarf-state (log: $(BUILD)/demo-build.log) ..."
	@cmake --build $(BUILD) -j $(JOBS) --target zarf-state -- --no-print-directory \
	  >$(BUILD)/demo-build.log 2>&1 || { cat $(BUILD)/demo-build.log; exit 1; }
	@packaging/demo.sh $(BUILD)

test: _build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

package: _build
	@$(MAKE) --no-print-directory _deps PACKAGES="lintian"
	@cd $(BUILD) && cpack -G DEB >/dev/null
	@src=$$(packaging/fetch_simdjson_source.sh build-static/simdjson-src) && \
	  cmake -S . -B build-static $(PACKAGE_FLAGS) $(LAUNCHER) -DZS_STATIC=ON -DZS_SIMDJSON_SOURCE="$$src" >/dev/null
	@cmake --build build-static -j $(JOBS) --target zarf-state -- --no-print-directory
	@cd build-static && cpack -G TGZ >/dev/null
	@rm -rf $(DIST) && mkdir -p $(DIST) && \
	  cp $(BUILD)/zarf-state_*.deb build-static/zarf-state-*-linux-x86_64.tar.gz $(DIST)/ && \
	  cd $(DIST) && sha256sum *.deb *.tar.gz > SHA256SUMS && ls -l
	packaging/check_packages.sh $(DIST)

fuzz:
	@$(MAKE) --no-print-directory _deps PACKAGES="$(PACKAGES) $(FUZZ_PACKAGES)"
	@cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DZS_FUZZ=ON \
	  -DCMAKE_CXX_COMPILER=clang++-14 -DZS_BUILD_TESTS=OFF -DZS_BUILD_BENCH=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) -- --no-print-directory
	FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

_deps:
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

_build: _deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DZS_SANITIZE=$(ZS_SANITIZE) $(LAUNCHER) \
	  -DZS_BUILD_BENCH=$(if $(filter ON,$(ZS_SANITIZE)),OFF,ON) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) -- --no-print-directory
