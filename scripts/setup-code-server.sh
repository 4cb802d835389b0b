#!/usr/bin/env bash
# Installs code-server (VS Code in a browser) and Debian's Chromium for the real-editor tests and `npm start`,
# using only the npm registry and Debian's packages. Idempotent: a second run only checks and prints the version.
#
# Usage: scripts/setup-code-server.sh [--browser-only]
#   Installs into .vscode-test/code-server/ (git-ignored). Set KUBE_NETLENS_CODE_SERVER_DIR to put it elsewhere.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${KUBE_NETLENS_CODE_SERVER_DIR:-$ROOT/.vscode-test/code-server}"
MARKER="$DIR/.installed-$CODE_SERVER_VERSION"
ENTRY="$DIR/node_modules/code-server/out/node/entry.js"

say() { printf '[setup-code-server] %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# Debian packages: headers for code-server's native modules, ripgrep (its own download is unreachable),
# Chromium for the browser side, and fonts so screenshots have readable text: DejaVu, and WenQuanYi Micro Hei for the
# Chinese of the zh-cn tests (without a CJK font Chromium draws every Chinese character as a box).
APT_PACKAGES=(libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev pkg-config ripgrep chromium fonts-dejavu-core
  fonts-wqy-microhei python3 make g++)

install_apt_packages() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  # python3/make/g++ may come from elsewhere (pyenv, a toolchain); only the commands matter.
  local needed=()
  for p in "${missing[@]+"${missing[@]}"}"; do
    case "$p" in
      python3|make|g++) command -v "$p" >/dev/null 2>&1 || needed+=("$p") ;;
      *) needed+=("$p") ;;
    esac
  done
  [ "${#needed[@]}" -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "missing Debian packages (${needed[*]}) and no apt-get to install them"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "missing Debian packages (${needed[*]}); run as root or install them first"
    sudo=(sudo)
  fi
  say "installing Debian packages: ${needed[*]}"
  "${sudo[@]+"${sudo[@]}"}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq </dev/null
  "${sudo[@]+"${sudo[@]}"}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${needed[@]}" </dev/null >/dev/null
}

# `code-server --version` writes a config file (with a generated password) and logs, as every start does: into a
# folder of its own, removed after, never into ~/.config and ~/.local/share.
code_server_version() {
  local own rc=0
  own="$(mktemp -d)"
  # its "Wrote default config file" line is noise; the error output of a failure is shown
  XDG_CONFIG_HOME="$own" XDG_DATA_HOME="$own" XDG_CACHE_HOME="$own" node "$ENTRY" --config "$own/config.yaml" --version 2>"$own/stderr" \
    || { rc=$?; cat "$own/stderr" >&2; }
  rm -rf "$own"
  return "$rc"
}

install_apt_packages
command -v chromium >/dev/null 2>&1 || die "chromium is not on PATH after installing it"
[ "${1:-}" = "--browser-only" ] && exit 0

if [ -f "$MARKER" ] && [ -f "$ENTRY" ]; then
  code_server_version
  exit 0
fi

say "installing code-server@$CODE_SERVER_VERSION into $DIR (a few minutes, once)"
mkdir -p "$DIR"
rm -f "$DIR"/.installed-*
cd "$DIR"
[ -f package.json ] || printf '{ "name": "kube-netlens-code-server", "private": true }\n' > package.json

export npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
# Its postinstall refuses root, needs headers and downloads ripgrep from outside: do those steps by hand below.
npm install --no-save --ignore-scripts --loglevel=error "code-server@$CODE_SERVER_VERSION"

VSCODE="$DIR/node_modules/code-server/lib/vscode"
[ -d "$VSCODE" ] || die "code-server's lib/vscode is missing after npm install"

(
  cd "$VSCODE"
  npm install --omit=dev --ignore-scripts --loglevel=error
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp -f "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  # Every package with a binding.gyp is a native module that must be compiled against this Node.
  mapfile -t natives < <(find node_modules -maxdepth 3 -name binding.gyp -printf '%h\n' | while read -r d; do
    [ -f "$d/package.json" ] && node -p "require('./$d/package.json').name"; done | sort -u)
  if [ "${#natives[@]}" -gt 0 ]; then
    say "rebuilding native modules: ${natives[*]}"
    npm rebuild --loglevel=error "${natives[@]}"
  fi
  ln -sfn node_modules node_modules.asar
  (cd bin/remote-cli && ln -sfn code-linux.sh code-server)
  (cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
  (cd extensions && npm install --omit=dev --ignore-scripts --loglevel=error)
)

npm rebuild --loglevel=error argon2

version="$(code_server_version)" || die "code-server does not start: node $ENTRY --version failed"
printf '%s\n' "$version" | grep -q "$CODE_SERVER_VERSION" || die "unexpected code-server version: $version"
touch "$MARKER"
printf '%s\n' "$version"
