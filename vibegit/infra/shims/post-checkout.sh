
wanted() {  # branch checkouts only (flag 1) to where a workflow runs or is paused
	[ "$3" = 1 ] && state_branch || return 1
	bound
	git cat-file -e "$bound" 2>/dev/null
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
