#!/usr/bin/env bash
# Install the build/test dependencies of opdispatch on Debian 12.
# Fast no-op when everything is already installed (checked with dpkg -s).
# libtorch-dev/python3-torch are optional: if they cannot be installed we say
# so and go on (the tests that need them skip).
set -euo pipefail

required=(g++ clang-14 cmake ninja-build libboost-dev libgtest-dev libbenchmark-dev valgrind nlohmann-json3-dev libdlpack-dev
          libopenblas-dev libhwy-dev libsleef-dev libomp-14-dev libkissfft-dev
          python3-dev python3-numpy)
# libdnnl-dev: conv2d's oneDNN adapter (kernels/cpu/onednn_conv.hpp); python3-torchvision: the model replay test.
optional=(libtorch-dev python3-torch python3-torchvision libdnnl-dev)

installed() { dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed'; }

missing_req=()
missing_opt=()
for p in "${required[@]}"; do installed "$p" || missing_req+=("$p"); done
for p in "${optional[@]}"; do installed "$p" || missing_opt+=("$p"); done

if [ ${#missing_req[@]} -eq 0 ] && [ ${#missing_opt[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "setup: missing ${missing_req[*]} ${missing_opt[*]} and not root (no sudo)" >&2
  [ ${#missing_req[@]} -eq 0 ] && exit 0
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt_install() {
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "$@"
}

echo "setup: installing ${missing_req[*]} ${missing_opt[*]}"
if ! "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update; then
  echo "setup: apt-get update failed" >&2
  [ ${#missing_req[@]} -gt 0 ] && exit 1
fi
if [ ${#missing_req[@]} -gt 0 ]; then
  apt_install "${missing_req[@]}"
fi
if [ ${#missing_opt[@]} -gt 0 ]; then
  if ! apt_install "${missing_opt[@]}"; then
    echo "setup: could not install ${missing_opt[*]}; continuing without them (libtorch's tests skip; without oneDNN conv2d keeps its own paths)"
  fi
fi
echo "setup: done"
