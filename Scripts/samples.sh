# Sourced by the check scripts: where the real public exports are. They live in ../shared/samples
# beside the checkout (CI's; HEALTHPORT_SHARED or HEALTHPORT_SAMPLES name another place), never
# in this repository. SAMPLE_DIRS holds the sample folders the checks read (the ones the tests
# read, Fixtures.sampleFolders); empty, with a note on standard error, when they are absent.
SAMPLES="${HEALTHPORT_SAMPLES:-${HEALTHPORT_SHARED:-../shared}/samples}"
SAMPLE_DIRS=()
for sample_folder in aleksi-applehealth alxdrcirilo-apple-health-parser dogsheep-healthkit-to-sqlite \
    nicolasreyrolle-apple-health-analyzer opendroid-hk tdda-applehealthdata; do
    [ -d "$SAMPLES/$sample_folder" ] && SAMPLE_DIRS+=("$SAMPLES/$sample_folder")
done
if [ ${#SAMPLE_DIRS[@]} -eq 0 ]; then
    echo "$(basename "$0"): $SAMPLES is absent: the real exports were skipped (set HEALTHPORT_SHARED to ../shared)" >&2
fi
