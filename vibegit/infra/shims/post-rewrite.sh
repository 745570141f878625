
wanted() {
	state_branch && git cat-file -e "$branch:workflow.lock" 2>/dev/null
}

if [ -z "$chained" ]; then
	check "$@"
	exit 0
fi
input=$(cat; echo .)  # both read git's "<old> <new>" lines
input=${input%.}
printf '%s' "$input" | check "$@"
printf '%s' "$input" | "$chained" "$@"
