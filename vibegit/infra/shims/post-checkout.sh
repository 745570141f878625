
wanted() {  # branch checkouts only (flag 1) to where a workflow runs or is paused
	[ -z "$VIBEGIT_IN_HOOK" ] || return 1  # a git command vibegit itself started (never the lock check's)
	[ "$3" = 1 ] && state_branch || return 1
	[ "$branch" != "?" ] || return 0
	head_key
	bound_at "$key" || vanished
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
