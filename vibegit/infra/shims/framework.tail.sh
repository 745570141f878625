*) echo "vibegit-hook: unknown hook '$hook' (use one of @FRAMEWORK_HOOKS@)" >&2; exit 2 ;;
esac
# The framework passes post-checkout's arguments in its environment
# (pre-push's and post-rewrite's too, which the check does not need).
if [ "$hook" = post-checkout ] && [ $# -lt 3 ]; then
	set -- "${PRE_COMMIT_FROM_REF-}" "${PRE_COMMIT_TO_REF-}" "${PRE_COMMIT_CHECKOUT_TYPE-1}"
fi
check "$@"
exit 0
