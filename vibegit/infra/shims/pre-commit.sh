
wanted() {  # a workflow runs or is paused on this branch (other-branches: anywhere)
	state_branch || return 1
	bound
	[ "$policy" != other-branches ] || bound=$branch:branches
	git cat-file -e "$bound" 2>/dev/null
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
