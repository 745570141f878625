
wanted() {  # a checkpoint can only move while a workflow runs or is paused
	lock_suspected
}

if [ -z "$chained" ]; then
	check "$@"
	exit 0
fi
input=$(cat; echo .)  # both read git's "<old> <new>" lines
input=${input%.}
printf '%s' "$input" | check "$@"
printf '%s' "$input" | "$chained" "$@"
