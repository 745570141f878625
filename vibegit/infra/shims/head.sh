#!/bin/sh
# vibegit-hook: @NAME@
@CREATED@# Written by 'vibegit install'; 'vibegit uninstall' removes it and puts back
# the hook it chained, if any (this file's name + @CHAINED@ beside it).
# The state branch is asked in sh first, so git pays no Python start-up
# when no workflow runs on this branch.
VIBEGIT_PYTHON=@PYTHON@
hook=@NAME@
# The hook this one chained is found by this file's own name: run as
# NAME.legacy (the pre-commit framework) or NAME.old (lefthook) it chains
# only what was renamed beside that name, so it never calls its caller.
chained=$0@CHAINED@
[ -z "$PRE_COMMIT_RUNNING_LEGACY" ] || [ "${0##*/}" != "$hook" ] || chained=
[ -x "$chained" ] || chained=

