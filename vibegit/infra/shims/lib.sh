state_branch() {  # $branch and $mirror from git config; branch=? when sh cannot be sure
	[ -z "$VIBEGIT_IN_HOOK" ] || return 1  # a git command that vibegit itself started
	branch=vibegit/state mirror=project_document/.ai_state
	git config --get-regexp '^vibegit\.(statebranch|mirrordir)$' >/dev/null
	case $? in 1) return 0 ;; esac  # neither is set (the common case): no subshell to read them
	conf=$(git config --get-regexp '^vibegit\.(statebranch|mirrordir)$')
	case $? in
	0) while IFS= read -r line; do
		case $line in
		'vibegit.statebranch '*) branch=${line#* } ;;
		'vibegit.mirrordir '*) mirror=${line#* } ;;
		*) branch=? ;;  # no value, or a value over several lines
		esac
	done <<EOF_CONF
$conf
EOF_CONF
	;;
	1) ;;
	*) branch=? ;;  # git could not read its configuration
	esac
	branch=${branch#refs/heads/}
	case $branch in
	''|*[!A-Za-z0-9/._-]*|*..*|/*|*/|.*|*.lock) branch=? ;;  # Python reads it (and fails closed)
	*) branch=refs/heads/$branch ;;
	esac
}

lock_suspected() {  # the one lock fast path: true when Python must decide, any doubt included
	state_branch || return 1
	[ "$branch" != "?" ] || return 0
	git cat-file -e "$branch:workflow.lock" 2>/dev/null && return 0
	[ -e "$mirror/workflow.lock" ]  # the branch may be gone while the mirror still shows a lock
}

run_vibegit() {
	if [ -n "$VIBEGIT_PYTHON" ] && [ -x "$VIBEGIT_PYTHON" ]; then
		"$VIBEGIT_PYTHON" -c '@BOOT@' "$hook" "$@"
	elif command -v vibegit >/dev/null 2>&1; then
		command vibegit hook "$hook" "$@"
	else
		echo "vibegit: $hook hook skipped: vibegit not found (${VIBEGIT_PYTHON:-no interpreter recorded}, none on PATH); reinstall it, or run 'vibegit uninstall'" >&2
	fi
}

check() {  # the lock check's refusal (and any failure of it) stops git; other hooks never do
	wanted "$@" || return 0
	run_vibegit "$@"
	rc=$?
	case $hook:$rc in
	*:0) return 0 ;;
	pre-commit:*|reference-transaction:*|pre-push:1) exit 1 ;;  # the lock check fails closed; credentials in the pushed state
	esac
	echo "vibegit: $hook hook exited $rc; git goes on" >&2
}
