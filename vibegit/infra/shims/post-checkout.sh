
wanted() {  # branch checkouts only (flag 1); file checkouts stay silent
	[ "$3" = 1 ] && state_branch && git cat-file -e "$branch:workflow.lock" 2>/dev/null
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
