#!/usr/bin/env bash
# Installs the Debian packages scalegate needs to build and test, when they are missing (idempotent).
set -euo pipefail

packages=(
	build-essential pkg-config cmake man-db
	libyaml-dev libcurl4-openssl-dev libcmocka-dev libsqlite3-dev libpq-dev
	libopenmpi-dev openmpi-bin gfortran
	libxml2-utils python3 python3-yaml yamllint
	clang libomp-dev
	chromium
	slurm-wlm munge
	sqlite3 postgresql strace
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "scalegate: installing missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
	sudo=()
elif command -v sudo >/dev/null 2>&1; then
	sudo=(sudo)
else
	echo "scalegate: error: missing packages and no root: apt-get install ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
