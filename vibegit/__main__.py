from __future__ import annotations

from vibegit.main import main

raise SystemExit(main())
