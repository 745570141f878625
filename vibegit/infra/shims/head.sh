#!/bin/sh
# vibegit-hook: @NAME@
@CREATED@# Written by 'vibegit install'; 'vibegit uninstall' removes it and puts back
# the hook it chained, if any (@NAME@@CHAINED@ beside this file).
# The state branch is asked in sh first, so git pays no Python start-up
# when no workflow runs on this branch.
VIBEGIT_PYTHON=@PYTHON@
hook=@NAME@
case $0 in */*) chained=${0%/*}/$hook@CHAINED@ ;; *) chained=./$hook@CHAINED@ ;; esac
[ -x "$chained" ] || chained=

state_branch() {
	[ -z "$VIBEGIT_IN_HOOK" ] || return 1  # a git command that vibegit itself started
	branch=refs/heads/vibegit/state
	policy=always
	git config --get-regexp '^vibegit\.(statebranch|blockcommits)$' >/dev/null || return 0  # unset: no subshell
	settings=$(git config --get-regexp '^vibegit\.(statebranch|blockcommits)$')
	while read -r key value; do
		case $key in
		vibegit.statebranch) branch=refs/heads/${value#refs/heads/} ;;
		vibegit.blockcommits) policy=$value ;;
		esac
	done <<SETTINGS
$settings
SETTINGS
}

bound() {  # where the state branch lists the workflows bound to HEAD's branch: $branch:branches/<key>
	gitdir=${GIT_DIR:-.git}
	if [ -f "$gitdir" ]; then read -r gitdir <"$gitdir" && gitdir=${gitdir#gitdir: }; fi
	head=
	[ -r "$gitdir/HEAD" ] && read -r head <"$gitdir/HEAD"
	case $head in
	"ref: refs/heads/.invalid" | "") bound=$branch:branches; return ;;  # not a files backend: let vibegit tell
	"ref: refs/heads/"*) rest=${head#ref: refs/heads/} ;;
	*) bound=$branch:branches/.detached; return ;;
	esac
	key=  # '%' and '/' escaped as %25 and %2F, as vibegit names the entry
	while :; do case $rest in *%*) key=$key${rest%%\%*}%25; rest=${rest#*%} ;; *) key=$key$rest; break ;; esac; done
	rest=$key key=
	while :; do case $rest in */*) key=$key${rest%%/*}%2F; rest=${rest#*/} ;; *) key=$key$rest; break ;; esac; done
	bound=$branch:branches/$key
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

check() {  # only the lock check's own refusal may fail the git command
	wanted "$@" || return 0
	run_vibegit "$@"
	rc=$?
	case $hook:$rc in
	*:0) return 0 ;;
	pre-commit:1|pre-push:1) exit 1 ;;  # the lock check; credentials in the pushed state branch
	esac
	echo "vibegit: $hook hook exited $rc; git goes on" >&2
}
