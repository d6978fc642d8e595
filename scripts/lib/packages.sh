# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts: the Debian packages each of them needs, and
# install_missing, which installs those not installed yet (one apt-get
# update, none when nothing is missing).

# The build and the suite (scripts/bootstrap).
build_packages=(build-essential cmake ninja-build ccache lld qt6-base-dev libqt6svg6 libqcustomplot-dev
                nlohmann-json3-dev libgloo-dev libeigen3-dev xvfb xauth python3 python3-numpy clang-format
                poppler-utils chromium  # the report tests: pdftotext, the headless-browser check
                qt6-svg-dev librsvg2-bin  # views exported as SVG; another renderer draws them in tests
                man-db appstream          # the package's tests: man pages, AppStream metadata
                xdotool)  # tst_studio_crash_restore types into a real studio under Xvfb
# The sanitizer builds (scripts/test --sanitizers): Debian's clang 14 and its
# sanitizer runtimes, as the fuzzers use (it compiles them in about half of
# GCC's time).
sanitizer_packages=(clang-14 libclang-rt-14-dev llvm-14)
# The package's check (scripts/test-package).
package_test_packages=(lintian dpkg-dev appstream desktop-file-utils man-db)
# The fuzzers (scripts/fuzz): the sanitizers' clang 14, whose runtimes hold
# libFuzzer and whose llvm-symbolizer (llvm-14) makes stacks readable.
fuzz_packages=("${sanitizer_packages[@]}" lld cmake ninja-build ccache nlohmann-json3-dev
               libeigen3-dev python3)

# install_missing WHO PACKAGE...: WHO names the script in its message.
install_missing() {
  local who=$1 p missing=()
  shift
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "$who: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}
