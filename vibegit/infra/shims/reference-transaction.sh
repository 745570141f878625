
if lock_suspected; then
	printf '%s' "$updates" | run_vibegit "$@"
	case $? in 0) ;; *) exit 1 ;; esac  # refused, or the check itself failed: fail closed
fi
[ -z "$chained" ] || { printf '%s' "$all" | "$chained" "$@"; exit $?; }
exit 0
