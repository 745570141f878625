
wanted() {  # a checkpoint can only move while a workflow runs or is paused on this branch
	[ -z "$VIBEGIT_IN_HOOK" ] || return 1  # a git command vibegit itself started (never the lock check's)
	state_branch || return 1
	[ "$branch" != "?" ] || return 0
	head_key
	bound_at "$key"
}

if [ -z "$chained" ]; then
	check "$@"
	exit 0
fi
input=$(cat; echo .)  # both read git's "<old> <new>" lines
input=${input%.}
printf '%s' "$input" | check "$@"
printf '%s' "$input" | "$chained" "$@"
