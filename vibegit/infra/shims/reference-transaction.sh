
suspected=
if state_branch; then
	seen=
	while read -r old new ref; do  # each branch a commit goes to, once
		[ "$ref" != "$branch" ] || continue  # the state branch itself (vibegit's events): no lock holds it
		case $ref in HEAD) head_key ;; refs/heads/*) key_of "${ref#refs/heads/}" ;; *) continue ;; esac
		case " $seen " in *" /$key "*) continue ;; esac
		seen="$seen /$key"
		if lock_suspected "$key"; then suspected=1; break; fi
	done <<EOF_UPDATES
$updates
EOF_UPDATES
fi
if [ -n "$suspected" ]; then
	printf '%s' "$updates" | run_vibegit "$@"
	case $? in 0) ;; *) exit 1 ;; esac  # refused, or the check itself failed: fail closed
fi
[ -z "$chained" ] || { printf '%s' "$all" | "$chained" "$@"; exit $?; }
exit 0
