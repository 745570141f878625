
wanted() {  # a workflow runs or is paused on this branch
	state_branch || return 1
	bound
	git cat-file -e "$bound" 2>/dev/null
}

if [ -z "$chained" ]; then
	check "$@"
	exit 0
fi
input=$(cat; echo .)  # both read git's "<old> <new>" lines
input=${input%.}
printf '%s' "$input" | check "$@"
printf '%s' "$input" | "$chained" "$@"
