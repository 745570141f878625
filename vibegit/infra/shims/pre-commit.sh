
wanted() {  # a workflow runs or is paused on this branch (other-branches: anywhere)
	state_branch || return 1
	head_key
	lock_suspected "$key"
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
