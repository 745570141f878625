
wanted() {  # branch checkouts only (flag 1); file checkouts stay silent
	[ "$3" = 1 ] && lock_suspected
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
