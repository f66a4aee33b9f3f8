#!/bin/sh
# Runs libFuzzer targets one after the other, each for a number of seconds with its
# corpus in build/fuzz/corpus/<target>/, and says PASS or FAIL for each:
#
#   tests/fuzz/run.sh SECONDS BUILD_DIR TARGET...
#
# A target's options: tests/fuzz/<target>.options holds extra libFuzzer flags, and
# a dictionary is used when BUILD_DIR/fuzz/<target>.dict or tests/fuzz/<name>.dict
# exists, and BUILD_DIR/fuzz/seeds/<target>/ (inputs made by the build) and
# tests/fuzz/found/<target>/ (inputs that once failed, kept so that they never fail
# again) are read beside the corpus. libFuzzer's own output goes to build/fuzz/logs/<target>.log; a crash leaves
# its input in build/fuzz/artifacts/ and the end of the log is printed. Exits 1 if
# any target failed.
set -u
seconds=$1
build=$2
shift 2
here=$(dirname "$0")
dir=$build/fuzz
mkdir -p "$dir/logs" "$dir/artifacts"
passed=0
failed=0
for target in "$@"; do
	name=${target#fuzz_}
	corpus=$dir/corpus/$target
	log=$dir/logs/$target.log
	mkdir -p "$corpus"
	set -- -max_total_time="$seconds" -artifact_prefix="$dir/artifacts/$target-" \
		-print_final_stats=1
	for dict in "$dir/$target.dict" "$here/$name.dict"; do
		[ -f "$dict" ] && set -- "$@" -dict="$dict" && break
	done
	[ -f "$here/$target.options" ] && set -- "$@" $(cat "$here/$target.options")
	seeds=
	[ -d "$dir/seeds/$target" ] && seeds=$dir/seeds/$target
	[ -d "$here/found/$target" ] && seeds="$seeds $here/found/$target"
	if "$dir/bin/$target" "$@" "$corpus" $seeds >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "PASS $target: ${runs:-?} runs in ${seconds} s, corpus $(ls "$corpus" | wc -l) inputs"
		passed=$((passed + 1))
	else
		echo "FAIL $target: see $log"
		tail -n 30 "$log" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
done
echo "fuzz: $passed targets clean, $failed crashed"
[ "$failed" -eq 0 ]
