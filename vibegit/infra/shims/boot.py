import sys
try:
    from vibegit.main import main
    import vibegit.handlers
except Exception as err:
    sys.stderr.write("vibegit: %s hook skipped: cannot import vibegit with %s (%s); reinstall it, or run vibegit uninstall\n" % (sys.argv[1], sys.executable, err))
    sys.exit(0)
sys.exit(main(["hook"] + sys.argv[1:]))
