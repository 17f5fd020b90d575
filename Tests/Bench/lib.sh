# Shared by the Tests/Bench scripts (sourced after they cd to the repository root and set REPORT;
# best_of_3 also needs WORK, a scratch folder).
# SHARED_DATA: the third-party data (`make` exports it; ../shared/data when a script runs alone).
SHARED_DATA=${SHARED_DATA:-$(cd .. && pwd)/shared/data}
# say: print a line and append it to the report.
say() { echo "$*" | tee -a "$REPORT"; }
# ratio A B: A / B with three decimals.
ratio() { python3 -c "print(f'{$1/$2:.3f}')"; }
# best_of_3 COMMAND...: the best wall seconds of three runs, in BEST.
best_of_3() {
  BEST=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
    t=$(cat "$WORK/time")
    if [ -z "$BEST" ] || python3 -c "import sys; sys.exit(0 if $t < $BEST else 1)"; then BEST=$t; fi
  done
}
