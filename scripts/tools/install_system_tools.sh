#!/usr/bin/env bash
# The system tools beside the Python environments, from Debian when missing:
# - chromium: it prints the private reports' PDF (README, "Private reports") and runs the
#   browser tests;
# - poppler-utils (pdftotext): the private reports' test reads their PDF's text.
# Used by `make private-reports`, `make system-tools` and .ci/run; apt-get needs root
# (sudo otherwise).
set -euo pipefail
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
sudo_if_needed=""
[ "$(id -u)" -eq 0 ] || sudo_if_needed="sudo"
echo "installing from Debian: ${missing[*]}"
$sudo_if_needed apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_if_needed apt-get install -y -qq "${missing[@]}" >/dev/null
