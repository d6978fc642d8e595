# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts CI runs: `stage NAME COMMAND...` runs COMMAND and,
# when HSDP_STAGE_LOG names a file (.ci/run sets it), appends a line
# "NAME<TAB>seconds<TAB>exit status" to it, failed or not, so that the stage
# table .ci/run prints at its end says where the time went.
stage() {
  local name=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  if [ -n "${HSDP_STAGE_LOG:-}" ]; then
    printf '%s\t%d\t%d\n' "$name" $((SECONDS - start)) "$status" >>"$HSDP_STAGE_LOG"
  fi
  return "$status"
}
