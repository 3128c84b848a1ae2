#!/usr/bin/env bash
# A stand-in for a batch scheduler's submit command (sbatch, qsub) for the
# cluster-generic executor: start the job script as a detached process of its own
# and print a job id. The job script itself writes the finished/failed markers the
# executor polls for.
set -euo pipefail
jobscript="${!#}"
nohup bash "$jobscript" > "$jobscript.out" 2>&1 < /dev/null &
echo "local-$!"
