state_branch() {  # $branch, $mirror and $policy from git config; branch=? when sh cannot be sure
	branch=vibegit/state mirror=project_document/.ai_state policy=always
	if no_settings; then branch=refs/heads/$branch; return 0; fi  # the common case, without a git process
	git config --get-regexp '^vibegit\.(statebranch|mirrordir|blockcommits)$' >/dev/null
	case $? in 1) branch=refs/heads/$branch; return 0 ;; esac  # none is set (the common case): no subshell
	conf=$(git config --get-regexp '^vibegit\.(statebranch|mirrordir|blockcommits)$')
	case $? in
	0) while IFS= read -r line; do
		case $line in
		'vibegit.statebranch '*) branch=${line#* } ;;
		'vibegit.mirrordir '*) mirror=${line#* } ;;
		'vibegit.blockcommits '*) policy=${line#* } ;;
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
	case $mirror in  # a value Python would refuse or trim: Python reads it (and falls back to the default)
	''|/*|*[!A-Za-z0-9/._-]*|..|../*|*/..|*/../*|.git|.git/*) branch=? ;;
	esac
}

key_of() {  # $key: branch $1 as vibegit names its entry under branches/ ('%' and '/' escaped)
	rest=$1 key=
	while :; do case $rest in *%*) key=$key${rest%%\%*}%25; rest=${rest#*%} ;; *) key=$key$rest; break ;; esac; done
	rest=$key key=
	while :; do case $rest in */*) key=$key${rest%%/*}%2F; rest=${rest#*/} ;; *) key=$key$rest; break ;; esac; done
}

git_dir() {  # $gitdir: this worktree's git dir (a linked worktree's .git file names it)
	gitdir=${GIT_DIR:-.git}
	if [ -f "$gitdir" ]; then read -r gitdir <"$gitdir" && gitdir=${gitdir#gitdir: }; fi
}

plain_config() {  # config file $1 can neither set vibegit.* nor bring in another file (absent: it cannot)
	[ -e "$1" ] || return 0
	[ -f "$1" ] && [ -r "$1" ] || return 1
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in *[Vv][Ii][Bb][Ee][Gg][Ii][Tt]*|*[Ii][Nn][Cc][Ll][Uu][Dd][Ee]*) return 1 ;; esac
		unread=$((unread - ${#line} - 1))
		[ "$unread" -ge 0 ] || return 1  # sh reads a byte per system call: past 1 KiB in all, git config is quicker
	done <"$1"
}

common_dir() {  # $common: the repository's git dir that linked worktrees share; false when sh cannot tell
	git_dir
	common=${GIT_COMMON_DIR-}
	[ -z "$common" ] || return 0
	common=$gitdir
	[ -f "$gitdir/commondir" ] || return 0
	read -r common <"$gitdir/commondir" || return 1
	case $common in /*) ;; *) common=$gitdir/$common ;; esac
}

no_settings() {  # sure, without a git process, that no vibegit.* setting is set; any doubt: false (git config reads them)
	# only under the git that 'vibegit install' asked (git puts its exec path first on a hook's PATH)
	[ -n "$VIBEGIT_GIT" ] && [ -n "$VIBEGIT_GIT_SYSTEM" ] && [ "${PATH%%:*}" = "$VIBEGIT_GIT" ] || return 1
	[ -z "${GIT_CONFIG_PARAMETERS-}${GIT_CONFIG_COUNT-}${GIT_CONFIG-}" ] || return 1  # git -c, GIT_CONFIG_KEY_n
	[ -n "${HOME-}" ] && [ -n "${GIT_CONFIG_GLOBAL-x}" ] && [ -n "${GIT_CONFIG_SYSTEM-x}" ] || return 1
	common_dir && [ -f "$common/config" ] || return 1
	unread=1024 previous=
	# every file git may read (more is only slower), where a setting is likeliest first:
	# the repository's, the worktree's, system, global, XDG
	for file in "$common/config" "$gitdir/config.worktree" "$VIBEGIT_GIT_SYSTEM" "${GIT_CONFIG_SYSTEM-}" \
		"${GIT_CONFIG_GLOBAL-}" "$HOME/.gitconfig" "${XDG_CONFIG_HOME:-$HOME/.config}/git/config"; do
		case $file in '' | "$previous") continue ;; esac  # the same file twice (GIT_CONFIG_GLOBAL=~/.gitconfig)
		previous=$file
		plain_config "$file" || return 1
	done
}

head_key() {  # $key of HEAD's branch (.detached on a detached HEAD); empty when sh cannot tell
	git_dir
	head=
	[ -r "$gitdir/HEAD" ] && read -r head <"$gitdir/HEAD"
	case $head in
	"ref: refs/heads/.invalid" | "") key= ;;  # not a files backend: Python tells
	"ref: refs/heads/"*) key_of "${head#ref: refs/heads/}" ;;
	*) key=.detached
		# a rebase commits on a detached HEAD for the branch it rewrites
		[ ! -d "$gitdir/rebase-merge" ] && [ ! -d "$gitdir/rebase-apply" ] || key= ;;
	esac
}

bound_at() {  # a workflow runs or is paused on the branch of key $1 (empty: on any branch)
	git cat-file -e "$branch:branches${1:+/$1}" 2>/dev/null
}

vanished() {  # the state branch is gone while this worktree's mirror still shows a lock
	[ -e "$mirror/workflow.lock" ] || return 1
	if common_dir && [ -f "$common/$branch" ]; then return 1; fi  # its ref file is there: not gone, no git process
	! git rev-parse -q --verify "$branch^{commit}" >/dev/null 2>&1  # packed, another ref backend: git tells
}

lock_suspected() {  # the one lock fast path for a commit to key $1: true when Python must decide, any doubt included
	case $branch:$policy in
	'?:'*) return 0 ;;
	*:always) bound_at "$1" && return 0 ;;
	*:never) return 1 ;;
	*) bound_at "" && return 0 ;;  # other-branches (or a value only Python can refuse): a workflow anywhere
	esac
	vanished
}

run_vibegit() {  # vibegit for $hook: -E and boot keep PYTHON* settings and the directory git runs it in out of its imports
	python=$VIBEGIT_PYTHON
	[ -n "$python" ] && [ -x "$python" ] || python_of_vibegit
	if [ -n "$python" ]; then
		"$python" -E -c '@BOOT@' "$hook" "$@"
	elif command -v vibegit >/dev/null 2>&1; then
		command vibegit hook "$hook" "$@"  # not a script pip wrote: run as it is
	else
		cannot_run "vibegit not found (${VIBEGIT_PYTHON:-no interpreter recorded}, none on PATH)"
	fi
}

python_of_vibegit() {  # $python: the interpreter the vibegit script on PATH names in its '#!' line, as pip writes it
	python=
	script=$(command -v vibegit 2>/dev/null) && [ -f "$script" ] && [ -r "$script" ] || return 0
	IFS= read -r line <"$script" || return 0
	case $line in '#!/'*) line=${line#??} ;; *) return 0 ;; esac
	case $line in *[!A-Za-z0-9/._+-]*) return 0 ;; esac  # '/usr/bin/env python3', an option: not one plain path
	case ${line##*/} in python*) [ ! -x "$line" ] || python=$line ;; esac
}

cannot_run() {  # $1: why vibegit cannot run; the lock check fails closed (exit 1), the other hooks let git go on
	fix="install it again ('pip install vibegit-state', then 'vibegit install')"
	case $hook in pre-commit | reference-transaction) ;; *)
		echo "vibegit: $hook hook skipped: $1; $fix" >&2
		return 0 ;;
	esac
	if [ -n "$VIBEGIT_ALLOW" ]; then  # nothing can record it: said instead
		echo "vibegit: VIBEGIT_ALLOW=1: the lock check cannot run ($1); git goes on" >&2
		return 0
	fi
	echo "vibegit: commit blocked: the lock check cannot run: $1; $fix, or let this one through with 'VIBEGIT_ALLOW=1 git …'" >&2
	return 1
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
