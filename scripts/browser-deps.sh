#!/usr/bin/env bash
# What the tests need from the machine: Debian's Chromium, Firefox ESR (the firefox-mv2
# build is tested in Firefox itself), the CJK fonts (the Chinese screenshots) and Apache with
# mod_dav (sync's WebDAV storage is tested against it: tests/sync/webdav-server.ts). Runs before the
# browser tests (npm run test:browser) and in CI: finds each; where some are missing on Debian or
# Ubuntu as root, installs them with apt-get; anywhere else, stops at once with the command to run.
# CHROMIUM_PATH and FIREFOX_PATH point the tests at other builds (then those are checked instead).
set -euo pipefail

chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
firefox=${FIREFOX_PATH:-/usr/bin/firefox-esr}

missing_packages() {
  local out=()
  [ -x "$chromium" ] || out+=(chromium)
  [ -x "$firefox" ] || out+=(firefox-esr)
  # grep reads to the end (no -q): with pipefail, fc-list cut off by an early exit would fail the check.
  fc-list 2>/dev/null | grep -i 'Noto Sans CJK' >/dev/null || out+=(fonts-noto-cjk)
  { [ -x /usr/sbin/apache2 ] && command -v htpasswd >/dev/null; } || out+=(apache2)
  echo "${out[*]:-}"
}

debian_like() {
  [ -r /etc/os-release ] || return 1
  # shellcheck disable=SC1091
  . /etc/os-release
  case " ${ID:-} ${ID_LIKE:-} " in *" debian "*|*" ubuntu "*) return 0 ;; *) return 1 ;; esac
}

missing=$(missing_packages)
if [ -n "$missing" ]; then
  # fc-list comes with fontconfig, which the fonts bring along.
  command="apt-get update && apt-get install -y $missing"
  if [ "$(id -u)" -eq 0 ] && debian_like && command -v apt-get >/dev/null; then
    echo "browser tests: installing Debian's $missing…"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing >/dev/null
    missing=$(missing_packages)
    if [ -n "$missing" ]; then
      echo "browser tests: apt-get installed the packages, but these are still missing: $missing" >&2
      echo "  (Chromium at $chromium, Firefox ESR at $firefox, the font 'Noto Sans CJK')" >&2
      exit 1
    fi
  else
    echo "browser tests: missing $missing (Chromium at $chromium, Firefox ESR at $firefox, the font 'Noto Sans CJK')." >&2
    if debian_like; then
      echo "  Install them, then run the tests again:  sudo $command" >&2
    else
      echo "  On Debian or Ubuntu:  sudo $command" >&2
      echo "  Elsewhere, install Chromium, Firefox ESR and Noto Sans CJK, and set CHROMIUM_PATH and FIREFOX_PATH." >&2
    fi
    exit 1
  fi
fi

echo "browser tests: $("$chromium" --version 2>/dev/null | head -n 1); $("$firefox" --version 2>/dev/null | head -n 1)"
