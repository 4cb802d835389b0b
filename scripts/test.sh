#!/usr/bin/env bash
# The test command: installs what the tests need, then updates (on CI: checks) the files derived from the rule
# modules, type-checks, lints, builds, runs the unit tests, packages the VSIX and runs the end-to-end tests in a real
# VS Code (code-server + Chromium).
# Works on a fresh clone, as root or not, without a terminal (CI=true, no stdin). Stops at the first failure.
#
# Usage: ./scripts/test.sh [--no-e2e]
set -euo pipefail
cd "$(dirname "$0")/.."

e2e=1
for arg in "$@"; do
  case "$arg" in
    --no-e2e) e2e=0 ;;
    *) echo "usage: ./scripts/test.sh [--no-e2e]" >&2; exit 2 ;;
  esac
done

step_name=""
step_started=0
step() {
  finish_step
  step_name="$1"
  step_started=$SECONDS
  printf '\n==> %s\n' "$step_name"
}
finish_step() {
  if [ -n "$step_name" ]; then printf '<== %s (%ss)\n' "$step_name" "$((SECONDS - step_started))"; fi
  step_name=""
}
on_error() {
  local rc=$?
  printf '\nFAILED: %s (exit %s). The output above says why.\n' "${step_name:-set-up}" "$rc" >&2
  exit "$rc"
}
trap on_error ERR

node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 20 ]; then
  echo "Node 20 or newer is needed (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi

step "npm ci (skipped when node_modules matches package-lock.json)"
# npm records what it installed in node_modules/.package-lock.json: compare every package's version with the lockfile.
if node -e '
  const fs = require("fs");
  const want = JSON.parse(fs.readFileSync("package-lock.json", "utf8")).packages;
  const have = JSON.parse(fs.readFileSync("node_modules/.package-lock.json", "utf8")).packages;
  const stale = Object.keys(want).filter((k) => k && !want[k].optional && (!have[k] || have[k].version !== want[k].version));
  process.exit(stale.length ? 1 : 0);
' 2>/dev/null; then
  echo "node_modules is up to date"
else
  timeout --kill-after=30 900 npm ci --no-audit --no-fund --loglevel=error </dev/null
fi

if [ "$e2e" -eq 1 ]; then
  step "real-editor prerequisites: Debian packages, code-server (scripts/setup-code-server.sh)"
  # bounded: an install that stalls on the network fails here instead of holding CI to its limit
  timeout --kill-after=30 900 ./scripts/setup-code-server.sh </dev/null
fi

step "derived files: the rule registry and docs/rules.md (scripts/derived.ts; with CI=true only checked)"
# Before the type-check, which reads the registry. On CI a stale committed file fails here instead of being rewritten.
node scripts/derivedFiles.mjs

step "type-check (tsc --noEmit)"
npx --no-install tsc --noEmit -p .

step "lint (eslint, zero warnings)"
npx --no-install eslint --max-warnings 0 .

step "format (prettier --check; npm run format rewrites)"
npx --no-install prettier --check --log-level warn "**/*.{ts,mts,mjs,js,cjs}"

step "build (esbuild)"
node scripts/build.mjs

step "pinned helm for the chart tests (scripts/setup-helm.mjs)"
node scripts/setup-helm.mjs

step "kubectl with Kustomize v5 for the Kustomize tests (scripts/setup-kubectl.mjs; PATH's kubectl is used when its Kustomize is v5)"
node scripts/setup-kubectl.mjs

step "unit, fixture and LSP tests"
node scripts/test.mjs </dev/null

if [ "$e2e" -eq 1 ]; then
  step "package the VSIX (npm run package)"
  rm -f kube-netlens-*.vsix
  npm run --silent package </dev/null

  step "end-to-end tests in code-server + Chromium (VSIX contents and size, then the editor scenarios)"
  node scripts/test.mjs e2e </dev/null
fi

finish_step
printf '\nAll checks passed.\n'
