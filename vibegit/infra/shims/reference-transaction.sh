
# The lock check that no commit path skips (commit, --no-verify, merge,
# cherry-pick, revert, rebase, am): only "prepared" can refuse; pure sh until
# HEAD or a branch is to move, so fetch, push, tags and stash pay one sh start.
[ "$1" = prepared ] && [ -z "$VIBEGIT_IN_HOOK" ] || { [ -z "$chained" ] || exec "$chained" "$@"; exit 0; }
all= updates=
while read -r old new ref; do
	all="$all$old $new $ref
"
	case $ref in HEAD|refs/heads/*) ;; *) continue ;; esac
	case $new in *[!0]*) updates="$updates$old $new $ref
" ;; esac  # a deletion brings no commit
done
if [ -n "$updates" ] && lock_suspected; then
	printf '%s' "$updates" | run_vibegit "$@"
	case $? in 0) ;; *) exit 1 ;; esac
fi
[ -z "$chained" ] || { printf '%s' "$all" | "$chained" "$@"; exit $?; }
exit 0
