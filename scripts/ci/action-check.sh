#!/usr/bin/env bash
# The check step of the composite GitHub Action (action.yml): runs `kube-netlens check` with the action's inputs
# (passed as INPUT_* variables), writes SARIF to a file or prints workflow annotations, and records the exit code as
# the step output `exit-code` (the last step fails the job with it, after the SARIF is uploaded).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
args=(check --fail-on "${INPUT_FAIL_ON:-error}")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
format="${INPUT_FORMAT:-sarif}"
case "$format" in
  sarif) args+=(--format sarif) ;;
  github) args+=(--format github) ;;
  *) echo "::error title=kube-netlens::the format input must be sarif or github (got '$format')"; exit 2 ;;
esac
# the paths input: one or more paths separated by white space
read -r -a paths <<< "${INPUT_PATHS:-.}"
[ "${#paths[@]}" -eq 0 ] && paths=(.)
if [ "$format" = sarif ]; then
  "$here/kube-netlens.sh" "${args[@]}" "${paths[@]}" > "${INPUT_SARIF_FILE:-kube-netlens.sarif}"
  code=$?
  echo "kube-netlens: SARIF written to ${INPUT_SARIF_FILE:-kube-netlens.sarif} (exit code $code)"
else
  "$here/kube-netlens.sh" "${args[@]}" "${paths[@]}"
  code=$?
fi
echo "exit-code=$code" >> "${GITHUB_OUTPUT:-/dev/null}"
# 2 is a usage or I/O error: fail at once, nothing worth uploading was written
if [ "$code" -ge 2 ]; then exit "$code"; fi
exit 0
