# The lock check that no commit path skips (commit, --no-verify, merge,
# cherry-pick, revert, rebase, am). Only "prepared" can refuse, and only an
# update of HEAD or a branch to a commit needs a look: everything else (a
# fetch runs this twice per ref) leaves here, before the rest is even read.
[ "$1" = prepared ] || { [ -z "$chained" ] || exec "$chained" "$@"; exit 0; }
all= updates=
while read -r old new ref; do
	all="$all$old $new $ref
"
	case $ref in HEAD|refs/heads/*) ;; *) continue ;; esac
	case $new in *[!0]*) updates="$updates$old $new $ref
" ;; esac  # a deletion brings no commit
done
if [ -z "$updates" ]; then
	[ -z "$chained" ] || { printf '%s' "$all" | "$chained" "$@"; exit $?; }
	exit 0
fi
