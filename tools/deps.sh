#!/usr/bin/env bash
# Installs everything rndn needs to build, test and run its demo, idempotently, from Debian's
# repository and PyPI only.  Runs as root or through sudo.  `tools/deps.sh --check` only checks
# (exit 0 when everything is present); `make deps` calls it, `make demo`/`make test` call it
# when the check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  build-essential g++ make git ca-certificates python3 python3-venv python3-pip
  postgresql-15 postgresql-server-dev-15 postgresql-client-15
  llvm-14-dev clang-14 libclang-rt-14-dev libzstd-dev zlib1g-dev
  libgtest-dev libgmock-dev
  sqlsmith bzip2
)
# Pinned Python packages used by the tooling (TPC-H generation and official answers, NVIDIA's
# disassembler and ELF dumper as the assembler's judges).
PY_PACKAGES=(duckdb==1.1.3 nvidia-cuda-nvdisasm==13.5.37 nvidia-cuda-cuobjdump==13.5.37)
VENV=.venv

missing_apt() {
  local p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

missing_py() {
  [ -x "$VENV/bin/python" ] || { echo venv; return; }
  local spec name ver have
  for spec in "${PY_PACKAGES[@]}"; do
    name=${spec%%==*}; ver=${spec##*==}
    have=$("$VENV/bin/python" -m pip show "$name" 2>/dev/null | awk '/^Version:/{print $2}')
    [ "$have" = "$ver" ] || echo "$spec"
  done
}

# PostgreSQL's regression suite comes from Debian's source package of postgresql-15
# (tools/pgregress-src.sh): apt needs deb-src lines for the same mirrors.
have_deb_src() { [ -n "$(apt-cache showsrc postgresql-15 2>/dev/null | head -1)" ]; }

add_deb_src() {
  local out=/etc/apt/sources.list.d/rndn-deb-src
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed -e 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | $SUDO tee "$out.sources" >/dev/null
  elif grep -qs '^deb ' /etc/apt/sources.list; then
    grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | $SUDO tee "$out.list" >/dev/null
  else
    echo "deps: no Debian apt source found to add deb-src lines for; add them for postgresql-15's source package" >&2
    return 0
  fi
  $SUDO apt-get update -qq
}

have_cuda() { [ -x /usr/local/cuda/bin/ptxas ] && [ -x /usr/local/cuda/bin/nvcc ]; }

if [ "${1:-}" = "--check" ]; then
  m="$(missing_apt) $(missing_py) $(have_deb_src || echo deb-src)"
  if [ -n "${m// /}" ]; then echo "missing: $m"; exit 1; fi
  have_cuda || { echo "missing: CUDA toolkit (/usr/local/cuda)"; exit 1; }
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

mapfile -t need < <(missing_apt)
if [ "${#need[@]}" -gt 0 ]; then
  echo "deps: installing ${need[*]}"
  $SUDO apt-get update -qq
  # Debian's postgresql-common would create and start a 'main' cluster; rndn never uses it.
  if [ ! -e /etc/postgresql-common/createcluster.conf ] || ! grep -q '^create_main_cluster *= *false' /etc/postgresql-common/createcluster.conf; then
    $SUDO mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" | $SUDO tee -a /etc/postgresql-common/createcluster.conf >/dev/null
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

if ! have_deb_src; then
  echo "deps: adding deb-src lines (PostgreSQL's regression suite comes from its source package)"
  add_deb_src
fi

mapfile -t needpy < <(missing_py)
if [ "${#needpy[@]}" -gt 0 ]; then
  echo "deps: setting up $VENV with ${PY_PACKAGES[*]}"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PY_PACKAGES[@]}"
fi

if ! have_cuda; then
  echo "deps: the CUDA toolkit (nvcc, ptxas) is expected in /usr/local/cuda; the PTX/SASS tests that need it will say they are skipped" >&2
fi
echo "deps: all present"
