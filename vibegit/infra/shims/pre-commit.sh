
wanted() {  # a lock file exists only while a workflow runs or is paused
	state_branch && git cat-file -e "$branch:workflow.lock" 2>/dev/null
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
