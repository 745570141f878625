import sys;sys.path[:] = [x for x in sys.path if x]  # agents.UNSHADOW: no directory git runs it from shadows vibegit
try:
    from vibegit.main import main
    import vibegit.handlers
except Exception as err:
    why = "cannot import vibegit with %s (%s)" % (sys.executable, err)
    fix = "install it again (%s -m pip install vibegit-state, then vibegit install)" % sys.executable
    if sys.argv[1] not in ("pre-commit", "reference-transaction"):
        sys.stderr.write("vibegit: %s hook skipped: %s; %s\n" % (sys.argv[1], why, fix))
        sys.exit(0)
    import os
    if os.environ.get("VIBEGIT_ALLOW"):  # nothing can record it: said instead
        sys.stderr.write("vibegit: VIBEGIT_ALLOW=1: the lock check cannot run (%s); git goes on\n" % why)
        sys.exit(0)
    sys.stderr.write("vibegit: commit blocked: the lock check cannot run: %s; %s, or let this one through with VIBEGIT_ALLOW=1 git ...\n" % (why, fix))
    sys.exit(1)
sys.exit(main(["hook"] + sys.argv[1:]))
