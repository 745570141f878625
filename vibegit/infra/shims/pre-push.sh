
wanted() {  # the state branch travels whenever it exists
	[ -z "$VIBEGIT_IN_HOOK" ] || return 1  # a git command vibegit itself started (never the lock check's)
	state_branch || return 1
	[ "$branch" != "?" ] || return 0
	git rev-parse -q --verify "$branch^{commit}" >/dev/null
}

if [ -z "$chained" ]; then
	check "$@"
	exit 0
fi
input=$(cat; echo .)  # both read git's ref lines; the state goes only if the chained hook agrees
input=${input%.}
printf '%s' "$input" | "$chained" "$@" || exit $?
printf '%s' "$input" | check "$@" || exit 1  # check runs in a subshell here: pass its refusal on
exit 0
