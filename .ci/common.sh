# Shared by .ci/run's lanes: each step's heading says how long the run has taken so far (from
# CI_START, the run's start in seconds since 1970), so the slow steps are visible in CI's log.
CI_START="${CI_START:-$(date +%s)}"
export CI_START
section() {
    local elapsed=$(($(date +%s) - CI_START))
    echo "== $1 [$((elapsed / 60)) min $((elapsed % 60)) s]"
}
